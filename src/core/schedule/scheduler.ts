/**
 * Decides when a call may run: tools not marked `parallel` run one call at a time in arrival
 * order, every call shares the global concurrency limit, and the wait queue is bounded. A sub-call
 * may borrow its parent's slot (the parent waits on it), so composing tools never deadlocks.
 */
import { ToolexecError } from "../errors/toolexec-error.js";
import { createFifoSemaphore, type FifoSemaphore } from "./fifo-semaphore.js";

export interface SchedulerOptions {
  maxConcurrency: number;
  maxQueue: number;
}

export interface Scheduler {
  /**
   * Wait for a turn. Resolves to the release function; rejects with `QUEUE_FULL`, or with the
   * signal's reason when it aborts while waiting.
   */
  acquire(tool: string, parallel: boolean, signal: AbortSignal, lender?: FifoSemaphore): Promise<() => void>;
  /** A turn at once when the tool's gate and a global slot are both free with nobody waiting: the release function, else undefined (then `acquire`). */
  tryAcquire(tool: string, parallel: boolean): (() => void) | undefined;
  /** Calls waiting for a turn right now. */
  readonly queued: number;
  /** Reject every waiting call with `reason`. */
  rejectAll(reason: unknown): void;
}

/** Wait on two semaphores at once; the first to grant wins and a late grant of the other is given back. */
function acquireEither(first: FifoSemaphore, second: FifoSemaphore, signal: AbortSignal): Promise<FifoSemaphore> {
  return new Promise((resolve, reject) => {
    const stop = new AbortController();
    const onAbort = () => stop.abort(signal.reason);
    let decided = false;
    let failures = 0;
    signal.addEventListener("abort", onAbort, { once: true });
    for (const semaphore of [first, second]) {
      semaphore.acquire(stop.signal).then(
        () => {
          if (decided) return semaphore.release();
          decided = true;
          signal.removeEventListener("abort", onAbort);
          stop.abort(LOST_RACE);
          resolve(semaphore);
        },
        (reason: unknown) => {
          if (decided || ++failures < 2) return;
          signal.removeEventListener("abort", onAbort);
          reject(reason);
        },
      );
    }
  });
}

/** Per-tool gates kept while idle, at most (beyond it an idle gate is dropped when released). */
const MAX_IDLE_GATES = 1024;

/** The reason the losing wait of `acquireEither` is withdrawn with; never seen by a caller. */
const LOST_RACE = new Error("another permit was granted first");

/** The per-tool gates: the gate is taken before the global permit, so a call waiting on its tool never holds a global slot. */
interface ToolGates {
  gateFor(tool: string): FifoSemaphore;
  /** Give a turn of `tool`'s gate back. */
  release(tool: string, gate: FifoSemaphore): void;
  /** Drop `tool`'s gate if it is idle and the bound is passed. */
  forgetIdle(tool: string, gate: FifoSemaphore): void;
  rejectAll(reason: unknown): void;
}

function createToolGates(): ToolGates {
  const gates = new Map<string, FifoSemaphore>();
  // Idle gates are kept (a gate per call would be built and dropped on every call of a warm tool),
  // up to a bound, so names of removed tools cannot pile up.
  const forgetIdle = (tool: string, gate: FifoSemaphore) => {
    if (gates.size > MAX_IDLE_GATES && gate.load === 0 && gates.get(tool) === gate) gates.delete(tool);
  };
  return {
    gateFor(tool) {
      let gate = gates.get(tool);
      if (!gate) gates.set(tool, (gate = createFifoSemaphore(1)));
      return gate;
    },
    release(tool, gate) {
      gate.release();
      forgetIdle(tool, gate);
    },
    forgetIdle,
    rejectAll(reason) {
      for (const gate of gates.values()) gate.rejectAll(reason);
    },
  };
}

/** Gives back the permits of one turn, once however often it is called. */
function releaser(gates: ToolGates, tool: string, gate: FifoSemaphore | undefined, slot: FifoSemaphore): () => void {
  let released = false;
  return () => {
    if (released) return;
    released = true;
    slot.release();
    if (gate) gates.release(tool, gate);
  };
}

/** The calls waiting for a turn, bounded by `maxQueue`. */
interface WaitQueue {
  readonly options: SchedulerOptions;
  waiting: number;
}

/** Take a permit of `semaphore`, or of `lender` when one is given and frees first; returns the one taken. */
async function waitFor(queue: WaitQueue, semaphore: FifoSemaphore, signal: AbortSignal, lender?: FifoSemaphore): Promise<FifoSemaphore> {
  if (semaphore.tryAcquire()) return semaphore;
  if (lender?.tryAcquire()) return lender;
  const { options } = queue;
  if (queue.waiting >= options.maxQueue) {
    throw new ToolexecError("QUEUE_FULL", `Too many calls waiting (limit ${options.maxQueue}); try again later`, {
      details: { maxQueue: options.maxQueue, maxConcurrency: options.maxConcurrency },
    });
  }
  queue.waiting++;
  try {
    if (!lender) {
      await semaphore.acquire(signal);
      return semaphore;
    }
    return await acquireEither(semaphore, lender, signal);
  } finally {
    queue.waiting--;
  }
}

export function createScheduler(options: SchedulerOptions): Scheduler {
  const global = createFifoSemaphore(options.maxConcurrency);
  const gates = createToolGates();
  const queue: WaitQueue = { options, waiting: 0 };

  return {
    async acquire(tool, parallel, signal, lender) {
      const gate = parallel ? undefined : gates.gateFor(tool);
      if (gate) {
        try {
          await waitFor(queue, gate, signal);
        } catch (error) {
          gates.forgetIdle(tool, gate);
          throw error;
        }
      }
      let slot: FifoSemaphore;
      try {
        slot = await waitFor(queue, global, signal, lender);
      } catch (error) {
        if (gate) gates.release(tool, gate);
        throw error;
      }
      return releaser(gates, tool, gate, slot);
    },
    tryAcquire(tool, parallel) {
      const gate = parallel ? undefined : gates.gateFor(tool);
      if (gate && !gate.tryAcquire()) return undefined;
      if (global.tryAcquire()) return releaser(gates, tool, gate, global);
      if (gate) gate.release();
      return undefined;
    },
    get queued() {
      return queue.waiting;
    },
    rejectAll(reason) {
      global.rejectAll(reason);
      gates.rejectAll(reason);
    },
  };
}
