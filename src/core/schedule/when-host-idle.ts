/**
 * Background work after start-up (code mode's warm-up, the config watcher's start) waits until the
 * host's event loop is idle, so that it never competes with what the host does first — `toolexec
 * serve` loading its MCP server's modules and answering `tools/list`.
 */
import { performance } from "node:perf_hooks";

/** The host's load is sampled over this long before each try. */
const IDLE_SAMPLE_MS = 10;
/** The host is idle when its event loop was busy for less than this share of the sample. */
const IDLE_SHARE = 0.5;
/** The action runs after this long at the latest, however busy the host is. */
const MAX_WAIT_MS = 1_000;

/**
 * Run `action` once the host's event loop is idle enough, or after 1 s. The wait keeps the process
 * alive only with `keepAlive` (for work a process is expected to stay up for, like a file watcher).
 *
 * @example
 * whenHostIdle(() => warmStep()); // once the host is less than half busy over 10 ms
 */
export function whenHostIdle(action: () => void, options: { keepAlive?: boolean } = {}, waited = 0): void {
  const before = performance.eventLoopUtilization();
  const timer = setTimeout(() => {
    const busy = performance.eventLoopUtilization(before).utilization;
    if (busy < IDLE_SHARE || waited + IDLE_SAMPLE_MS >= MAX_WAIT_MS) action();
    else whenHostIdle(action, options, waited + IDLE_SAMPLE_MS);
  }, IDLE_SAMPLE_MS);
  if (options.keepAlive !== true) timer.unref();
}
