/**
 * A long-running `toolexec serve` keeps V8's young generation small. V8 doubles the semi-spaces
 * (1 → 16 MiB each on 64-bit) whenever the objects that survived scavenges since the last doubling
 * outgrow them; a start-up's modules, schemas and compiled code all survive, so by the first
 * `code_execution` a serve process holds 32 MiB of young generation for a steady state that allocates
 * a few hundred KiB a call (bench/startup.mjs: ~10 MB of RSS). `--max-semi-space-size` only takes
 * effect on the command line (V8 sizes the heap before any JavaScript runs), but the growth factor is
 * read at each doubling: once the young generation has reached half of `limitBytes`, it is set to 1,
 * so it ends between half the limit and the limit. Half, because a garbage collection's observers are
 * told on a later turn of the event loop: serve's start-up can double it twice in one synchronous
 * stretch (seen: 4 → 16 MiB between two reports), and an observer waiting for the limit itself then
 * stops it at twice the limit. Not from the start: with 1 MiB semi-spaces the start-up's allocations
 * took three times the scavenges, ~10% more CPU until `tools/list`.
 */
import { PerformanceObserver } from "node:perf_hooks";
import { getHeapSpaceStatistics, setFlagsFromString } from "node:v8";

/**
 * Both semi-spaces together: 2 × 4 MiB. At 2 × 2 MiB serve's start-up took ~25 scavenges instead of ~13
 * and ~6% more CPU until `tools/list`; at 2 × 4 MiB its CPU is that of the unlimited growth (11
 * alternating starts each, bench notes in docs/serve.md).
 */
export const SERVE_YOUNG_GENERATION_BYTES = 8 * 1024 * 1024;

function youngGenerationBytes(): number {
  return getHeapSpaceStatistics().find((space) => space.space_name === "new_space")?.space_size ?? 0;
}

/**
 * @example
 * limitYoungGeneration(SERVE_YOUNG_GENERATION_BYTES); // first thing in `toolexec serve`
 */
export function limitYoungGeneration(limitBytes: number): void {
  const stopGrowing = () => setFlagsFromString("--semi-space-growth-factor=1");
  // One doubling short of the limit: at most one more can come before the observer hears of it.
  const nearLimit = () => youngGenerationBytes() * 2 >= limitBytes;
  if (nearLimit()) return stopGrowing();
  // Told after each garbage collection (a doubling happens in one), on a later turn of the event loop.
  const observer = new PerformanceObserver(() => {
    if (!nearLimit()) return;
    stopGrowing();
    observer.disconnect();
  });
  observer.observe({ entryTypes: ["gc"] });
}
