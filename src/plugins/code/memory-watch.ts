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

/** An array, not a Set: with runs starting and ending one by one, a Set that empties shrinks its table and grows it again. */
const watched: MemoryWatched[] = [];
let interval: NodeJS.Timeout | undefined;

function checkAll(): void {
  if (watched.length === 0) {
    clearInterval(interval);
    interval = undefined;
    return;
  }
  // From the end: a check that ends its run takes it out, and the run moved into its place was checked already.
  for (let index = watched.length - 1; index >= 0; index--) watched[index]?.checkMemory();
}

/** Check `run`'s memory from now until {@link unwatchMemory}: the first check comes within one interval. */
export function watchMemory(run: MemoryWatched): void {
  if (!watched.includes(run)) watched.push(run);
  if (interval !== undefined) return;
  interval = setInterval(checkAll, MEMORY_CHECK_INTERVAL_MS);
  // The watchdog never holds the process open: a run's own deadline does.
  interval.unref();
}

export function unwatchMemory(run: MemoryWatched): void {
  const index = watched.lastIndexOf(run);
  if (index < 0) return;
  // The last one takes its place: the order of checks does not matter.
  watched[index] = watched[watched.length - 1]!;
  watched.pop();
}
