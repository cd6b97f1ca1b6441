/**
 * Events of start-up are held until just after `createExecutor` resolves: a host can only
 * subscribe then, and "server X is unreachable" is what it most wants to hear. They go out at the
 * next event-loop turn, or before any later event, whichever comes first, in order.
 */
import type { Emitter } from "../events.js";
import type { ExecutorEvents } from "./executor-events.js";

export interface StartupEvents {
  emit<Name extends keyof ExecutorEvents>(event: Name, payload: ExecutorEvents[Name]): void;
  /** The emitter the pipeline and plugins use: while events are held, every event counts as listened to (it is delivered later). */
  readonly events: Emitter<ExecutorEvents>;
  /** Start-up is over: the held events go out at the next turn (or before the next event). */
  release(): void;
  /** The executor closed: what is still held is dropped. */
  drop(): void;
}

export function holdStartupEvents(emitter: Emitter<ExecutorEvents>): StartupEvents {
  let starting = true;
  let held: Array<() => void> | undefined = [];
  const deliverHeld = () => {
    const pending = held ?? [];
    held = undefined;
    for (const deliver of pending) deliver();
  };
  const emit = <Name extends keyof ExecutorEvents>(event: Name, payload: ExecutorEvents[Name]) => {
    if (starting) held!.push(() => emitter.emit(event, payload));
    else {
      if (held) deliverHeld();
      emitter.emit(event, payload);
    }
  };
  return {
    emit,
    events: { ...emitter, emit, hasListeners: (event: keyof ExecutorEvents) => held !== undefined || emitter.hasListeners(event) },
    release() {
      starting = false;
      setImmediate(deliverHeld);
    },
    drop() {
      held = undefined;
    },
  };
}
