/**
 * Exponential backoff with jitter, and the server's own word on when to come back (`Retry-After`):
 * shared by every plugin that retries over the network (MCP connections, web search providers).
 */

/** The bounds of a backoff: the first wait and the longest one. */
export interface BackoffBounds {
  minDelayMs: number;
  maxDelayMs: number;
}

/**
 * The wait before retry number `attempt` (0 = the first retry): `minDelayMs · 2^attempt`, capped at
 * `maxDelayMs`, then jittered into its upper half so a fleet of clients does not retry in step
 * while no wait collapses to nothing.
 *
 * @example
 * backoffDelay({ minDelayMs: 250, maxDelayMs: 30_000 }, 2); // between 500 and 1000
 */
export function backoffDelay(policy: BackoffBounds, attempt: number, random: () => number = Math.random): number {
  const exponential = policy.minDelayMs * 2 ** Math.min(attempt, 30);
  const capped = Math.min(policy.maxDelayMs, exponential);
  return Math.round(capped / 2 + (random() * capped) / 2);
}

/** Longest `Retry-After` honoured; a server asking for more is treated as down for now. */
export const MAX_RETRY_AFTER_MS = 10 * 60_000;

/**
 * A `Retry-After` header (seconds, or an HTTP date) in ms from `now`; undefined when absent or unreadable.
 *
 * @example
 * parseRetryAfter("2", Date.now()); // 2000
 */
export function parseRetryAfter(header: string | null | undefined, now: number): number | undefined {
  if (header === null || header === undefined || header.trim() === "") return undefined;
  const text = header.trim();
  const milliseconds = /^\d+(\.\d+)?$/.test(text) ? Number(text) * 1000 : Date.parse(text) - now;
  if (!Number.isFinite(milliseconds)) return undefined;
  return Math.min(MAX_RETRY_AFTER_MS, Math.max(0, Math.round(milliseconds)));
}

/** Resolve after `ms`, or reject with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
