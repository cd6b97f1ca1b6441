/** Counters in this process's memory, each with an optional window: the files driver's `increment`. */
import type { IncrementOptions, StoreKey } from "./store.js";

export interface MemoryCounters {
  increment(key: StoreKey, amount: number, options: IncrementOptions): number;
  clear(): void;
}

export function createMemoryCounters(now: () => number = Date.now): MemoryCounters {
  /** Each count and when its window ends (epoch ms; absent: never). */
  const counters = new Map<StoreKey, { count: number; resetAt?: number }>();
  return {
    increment(key, amount, options) {
      const at = now();
      const current = counters.get(key);
      const live = current !== undefined && (current.resetAt === undefined || current.resetAt > at);
      const counter = live ? current : { count: 0, ...(options.ttlMs === undefined ? {} : { resetAt: at + options.ttlMs }) };
      counter.count += amount;
      counters.set(key, counter);
      return counter.count;
    },
    clear() {
      counters.clear();
    },
  };
}
