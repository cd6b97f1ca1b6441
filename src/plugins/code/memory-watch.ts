/**
 * The memory watchdog's clock: one interval for every run under way, where each run had its own
 * `setInterval` (a Timeout made, listed and unlisted per run, for runs that mostly end within a
 * millisecond). The interval runs while runs are watched and stops at its first tick with none.
 */
import { MEMORY_CHECK_INTERVAL_MS } from "./resident-memory.js";

/** A run whose runtime's memory is checked every {@link MEMORY_CHECK_INTERVAL_MS}. */
export interface MemoryWatched {
  checkMemory(): void;
}

const watched = new Set<MemoryWatched>();
let interval: NodeJS.Timeout | undefined;

function checkAll(): void {
  if (watched.size === 0) {
    clearInterval(interval);
    interval = undefined;
    return;
  }
  // A check that ends its run takes it out of the set: a Set's iteration allows that.
  for (const run of watched) run.checkMemory();
}

/** Check `run`'s memory from now until {@link unwatchMemory}: the first check comes within one interval. */
export function watchMemory(run: MemoryWatched): void {
  watched.add(run);
  if (interval !== undefined) return;
  interval = setInterval(checkAll, MEMORY_CHECK_INTERVAL_MS);
  // The watchdog never holds the process open: a run's own deadline does.
  interval.unref();
}

export function unwatchMemory(run: MemoryWatched): void {
  watched.delete(run);
}
