/**
 * How long the host's event loop was blocked by a piece of work, beyond what the machine and the
 * unavoidable part of the work cost it anyway. Tests run while other processes load both cores
 * (a 4 MB JSON parse then takes 30–100 ms instead of 10), so the loop is also watched idle for as
 * long, while running `reference` once (e.g. parsing one frame of the size the work sends, which
 * any legal frame costs), and the work is charged only what exceeds that baseline. The best of a
 * few attempts counts: a stall the host causes itself shows in every attempt. The work these
 * tests guard against blocked the loop for seconds; their bound is 50 ms.
 */
import { monitorEventLoopDelay } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";

/** The longest delay of the loop, in ms, while `work` ran. */
async function longestDelay<T>(work: () => Promise<T>): Promise<{ value: T; maxMs: number; elapsedMs: number }> {
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  // The histogram's first timer only starts its clock: work that blocks before it runs is not seen.
  await sleep(15);
  const started = performance.now();
  try {
    const value = await work();
    // The histogram records a delay when the loop's next timer runs: let it run once more.
    await sleep(10);
    return { value, maxMs: histogram.max / 1e6, elapsedMs: performance.now() - started };
  } finally {
    histogram.disable();
  }
}

export interface Stall<T> {
  value: T;
  /** The longest delay of the loop during the work, in ms. */
  workMs: number;
  /** The longest delay while idle for as long (at least 200 ms) and running `reference`, in ms. */
  baselineMs: number;
  /** What the work itself cost the loop: `workMs` beyond `baselineMs`, never below 0. */
  attributableMs: number;
}

export interface StallOptions {
  /** Synchronous work the baseline includes: the cost the work cannot avoid. */
  reference?: () => void;
  /** How many times to run the work (default 3): the best attempt counts. */
  attempts?: number;
  /** Stop early once an attempt is within this many ms. */
  boundMs?: number;
}

async function attempt<T>(work: () => Promise<T>, reference: (() => void) | undefined): Promise<Stall<T>> {
  const measured = await longestDelay(work);
  const idleMs = Math.min(2_000, Math.max(200, measured.elapsedMs));
  const idle = await longestDelay(async () => {
    await sleep(idleMs / 2);
    reference?.();
    await sleep(idleMs / 2);
  });
  return { value: measured.value, workMs: measured.maxMs, baselineMs: idle.maxMs, attributableMs: Math.max(0, measured.maxMs - idle.maxMs) };
}

/**
 * @example
 * const stall = await measureStall(() => executor.executeCode({ code }), { boundMs: 50 });
 * expect(stall.attributableMs).toBeLessThanOrEqual(50);
 */
export async function measureStall<T>(work: () => Promise<T>, options: StallOptions = {}): Promise<Stall<T>> {
  let best: Stall<T> | undefined;
  for (let index = 0; index < (options.attempts ?? 3); index++) {
    const stall = await attempt(work, options.reference);
    if (best === undefined || stall.attributableMs < best.attributableMs) best = stall;
    if (options.boundMs !== undefined && best.attributableMs <= options.boundMs) break;
  }
  return best!;
}

/**
 * A reference: the host's parse of one frame of `bytes` (its bytes joined, decoded, parsed), the
 * cost every legal frame of that size has.
 *
 * @example
 * measureStall(work, { reference: parseFrameOf(4 * 1024 * 1024) });
 */
export function parseFrameOf(bytes: number): () => void {
  const frame = Buffer.from(JSON.stringify({ t: "call", target: { server: "local", tool: "D".repeat(bytes) }, args: {} }));
  return () => void JSON.parse(Buffer.concat([frame.subarray(0, 65_536), frame.subarray(65_536)]).toString("utf8"));
}
