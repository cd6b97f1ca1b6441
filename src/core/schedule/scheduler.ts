/**
 * Decides when a call may run: tools not marked `parallel` run one call at a time in arrival
 * order, every call shares the global concurrency limit, and the wait queue is bounded.
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
  acquire(tool: string, parallel: boolean, signal: AbortSignal): Promise<() => void>;
  /** Calls waiting for a turn right now. */
  readonly queued: number;
  /** Reject every waiting call with `reason`. */
  rejectAll(reason: unknown): void;
}

export function createScheduler(options: SchedulerOptions): Scheduler {
  const global = createFifoSemaphore(options.maxConcurrency);
  // The per-tool gate is taken before the global permit, so a call waiting on its tool never
  // holds a global slot that other tools could use.
  const gates = new Map<string, FifoSemaphore>();
  let queued = 0;

  const gateFor = (tool: string) => {
    let gate = gates.get(tool);
    if (!gate) gates.set(tool, (gate = createFifoSemaphore(1)));
    return gate;
  };
  const forgetIdle = (tool: string, gate: FifoSemaphore) => {
    if (gate.load === 0 && gates.get(tool) === gate) gates.delete(tool);
  };

  const waitFor = async (semaphore: FifoSemaphore, signal: AbortSignal) => {
    if (semaphore.tryAcquire()) return;
    if (queued >= options.maxQueue) {
      throw new ToolexecError("QUEUE_FULL", `Too many calls waiting (limit ${options.maxQueue}); try again later`, {
        details: { maxQueue: options.maxQueue, maxConcurrency: options.maxConcurrency },
      });
    }
    queued++;
    try {
      await semaphore.acquire(signal);
    } finally {
      queued--;
    }
  };

  return {
    async acquire(tool, parallel, signal) {
      const gate = parallel ? undefined : gateFor(tool);
      if (gate) {
        try {
          await waitFor(gate, signal);
        } catch (error) {
          forgetIdle(tool, gate);
          throw error;
        }
      }
      try {
        await waitFor(global, signal);
      } catch (error) {
        if (gate) {
          gate.release();
          forgetIdle(tool, gate);
        }
        throw error;
      }
      let released = false;
      return () => {
        if (released) return;
        released = true;
        global.release();
        if (gate) {
          gate.release();
          forgetIdle(tool, gate);
        }
      };
    },
    get queued() {
      return queued;
    },
    rejectAll(reason) {
      global.rejectAll(reason);
      for (const gate of gates.values()) gate.rejectAll(reason);
    },
  };
}
