/** A call's turn on the scheduler: a free slot at once, a borrowed parent's slot, or a wait in line. */
import { createFifoSemaphore, type FifoSemaphore } from "../schedule/fifo-semaphore.js";
import type { Scheduler } from "../schedule/scheduler.js";
import type { RegisteredTool } from "./plugin-host.js";
import type { RunningCall } from "./running-call.js";

/** A self-scheduled tool's turn: nothing to give back, one function for every call. */
const NO_TURN = () => {};

/**
 * Wait for a turn; a sub-call of a call that holds a slot may borrow that slot instead of waiting.
 * A free turn is taken without a promise (the common case): the release function, else a promise of it.
 */
export function takeTurn(scheduler: Scheduler, registered: RegisteredTool, name: string, running: RunningCall, parent: RunningCall | undefined): (() => void) | Promise<() => void> {
  if (running.abortReason) throw running.abortReason;
  if (registered.definition.selfScheduled) return NO_TURN;
  const parallel = registered.definition.parallel ?? false;
  const holding = (release: () => void) => {
    running.holdsSlot = true;
    return () => {
      running.holdsSlot = false;
      release();
    };
  };
  const free = scheduler.tryAcquire(name, parallel);
  if (free) return holding(free);
  let lender: FifoSemaphore | undefined;
  if (parent?.holdsSlot) lender = parent.lentSlot ??= createFifoSemaphore(1);
  return scheduler.acquire(name, parallel, running.signal, lender).then(holding);
}

