/**
 * Per-principal limits: calls started per minute, counted in the store so that replicas sharing it
 * (Redis) share one count per principal, and calls running at once, counted by this process.
 *
 * Calls per minute are a sliding-window counter: a counter per principal per clock minute (the
 * store's `increment` with a TTL), and the previous minute's count weighed by how much of it the
 * last 60 s still cover. A call is refused when that estimate would pass the limit; it is not
 * counted, and the answer says how long until it would fit.
 *
 * The store being down does not stop calls: limits bound fairness and cost, not who may call (the
 * credential was checked), and refusing every call while Redis restarts would turn a blip into an
 * outage. Such calls are let through uncounted and a warning is logged (once a minute at most).
 *
 * Calls at once stay per process: a shared count would leak the slots of a replica that dies
 * mid-call, and what they protect is this process's load.
 */
import { createHash } from "node:crypto";

export interface LimitSettings {
  callsPerMinute?: number;
  concurrentCalls?: number;
}

export type LimitVerdict = { ok: true; release(): void } | { ok: false; message: string; retryAfterMs: number };

export interface PrincipalLimits {
  /** A call by `principalId` may start now (`release` when it ends), or how long to wait. */
  admit(principalId: string): Promise<LimitVerdict>;
}

/** The part of a store limits need (every `Store` has it). */
export interface LimitCounters {
  increment(key: string, amount?: number, options?: { ttlMs?: number }): Promise<number>;
}

export interface LimitOptions {
  counters: LimitCounters;
  /** Told when the counters cannot be reached and calls go uncounted. */
  warn(message: string): void;
  now?: () => number;
}

const MINUTE_MS = 60_000;
/** Where the counters live in the store; one folder per principal (a digest: ids may hold any character). */
export const LIMITS_PREFIX = ".toolexec/identity/limits/";

const counterKey = (principalId: string, minute: number) => `${LIMITS_PREFIX}${createHash("sha256").update(principalId).digest("hex").slice(0, 32)}/${minute}`;

/**
 * How long until one more call fits under `limit`, this minute's count being `current` with it.
 * Within this minute, the previous one's weight falls; else it waits for the next minute, where this
 * one's count (less the refused call) becomes the weighed one.
 */
function waitFor(limit: number, current: number, previous: number, elapsed: number): number {
  if (current <= limit && previous > 0) return MINUTE_MS * (1 - (limit - current) / previous) - elapsed;
  const counted = current - 1;
  const into = counted === 0 ? 0 : MINUTE_MS * (1 - (limit - 1) / counted);
  return MINUTE_MS - elapsed + Math.max(0, into);
}

/**
 * @example
 * const limits = createPrincipalLimits({ callsPerMinute: 60, concurrentCalls: 4 }, { counters: executor.store, warn: logger.warn });
 * const verdict = await limits.admit("alice");
 * if (verdict.ok) try { await call(); } finally { verdict.release(); }
 */
export function createPrincipalLimits(settings: LimitSettings, options: LimitOptions): PrincipalLimits {
  const now = options.now ?? Date.now;
  const running = new Map<string, number>();
  let warnedAt = -Infinity;
  const release = (principalId: string) => {
    const left = (running.get(principalId) ?? 1) - 1;
    if (left === 0) running.delete(principalId);
    else running.set(principalId, left);
  };

  /** Undefined when the call fits this minute (it is then counted), else the refusal. */
  const perMinute = async (principalId: string, limit: number): Promise<LimitVerdict | undefined> => {
    const time = now();
    const minute = Math.floor(time / MINUTE_MS);
    const elapsed = time - minute * MINUTE_MS;
    const ttl = { ttlMs: 2 * MINUTE_MS };
    let current: number;
    let previous: number;
    try {
      [current, previous] = await Promise.all([options.counters.increment(counterKey(principalId, minute), 1, ttl), options.counters.increment(counterKey(principalId, minute - 1), 0, ttl)]);
    } catch (error) {
      if (time - warnedAt >= MINUTE_MS) {
        warnedAt = time;
        options.warn(`Calls per minute are not counted while the store is unreachable; calls go through meanwhile: ${(error as Error)?.message ?? String(error)}`);
      }
      return undefined;
    }
    if ((previous * (MINUTE_MS - elapsed)) / MINUTE_MS + current <= limit) return undefined;
    await options.counters.increment(counterKey(principalId, minute), -1, ttl).catch(() => undefined);
    const retryAfterMs = Math.max(1, Math.ceil(waitFor(limit, current, previous, elapsed)));
    return { ok: false, message: `Rate limited: ${limit} calls per minute; retry in ${Math.ceil(retryAfterMs / 1000)} s`, retryAfterMs };
  };

  return {
    async admit(principalId) {
      const underWay = running.get(principalId) ?? 0;
      if (settings.concurrentCalls !== undefined && underWay >= settings.concurrentCalls) {
        return { ok: false, message: `Rate limited: ${settings.concurrentCalls} calls already running for this principal; retry when one ends`, retryAfterMs: 1_000 };
      }
      // The slot is taken before the store is asked: calls admitted meanwhile see it.
      running.set(principalId, underWay + 1);
      const refused = settings.callsPerMinute === undefined ? undefined : await perMinute(principalId, settings.callsPerMinute);
      if (refused !== undefined) {
        release(principalId);
        return refused;
      }
      let released = false;
      return {
        ok: true,
        release() {
          if (released) return;
          released = true;
          release(principalId);
        },
      };
    },
  };
}
