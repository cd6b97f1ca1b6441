/**
 * The cap on stdio servers starting at once (spawn to tools listed), shared by every server of the
 * executor, eager and lazy starts and reconnections alike: a config of twenty servers starts them a
 * few at a time instead of in one storm. Waiters go first in, first out.
 */
import { createFifoSemaphore, type FifoSemaphore } from "../../core/schedule/fifo-semaphore.js";
import { DEFAULT_MAX_CONCURRENT_STARTS } from "./config/mcp-config-constants.js";

export interface StartGate {
  /** Run `start` once a slot is free; rejects with the signal's reason if it aborts while waiting. */
  run<T>(signal: AbortSignal, start: () => Promise<T>): Promise<T>;
  /** A new cap (mcp.json's `maxConcurrentStarts` after a reload); starts under way finish under the old one. */
  setLimit(limit: number): void;
}

export function createStartGate(limit = DEFAULT_MAX_CONCURRENT_STARTS): StartGate {
  let current = { limit, slots: createFifoSemaphore(limit) };
  return {
    async run(signal, start) {
      const { slots } = current;
      await acquire(slots, signal);
      try {
        return await start();
      } finally {
        slots.release();
      }
    },
    setLimit(next) {
      if (next !== current.limit) current = { limit: next, slots: createFifoSemaphore(next) };
    },
  };
}

function acquire(slots: FifoSemaphore, signal: AbortSignal): Promise<void> {
  return slots.tryAcquire() ? Promise.resolve() : slots.acquire(signal);
}
