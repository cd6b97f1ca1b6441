/**
 * Per-principal limits, in memory: calls started per minute (a sliding window of start times) and
 * calls running at once. Past either, a call is refused with how long to wait.
 */
export interface LimitSettings {
  callsPerMinute?: number;
  concurrentCalls?: number;
}

export type LimitVerdict = { ok: true; release(): void } | { ok: false; message: string; retryAfterMs: number };

export interface PrincipalLimits {
  /** A call by `principalId` may start now (`release` when it ends), or how long to wait. */
  admit(principalId: string): LimitVerdict;
}

const MINUTE_MS = 60_000;

/**
 * @example
 * const limits = createPrincipalLimits({ callsPerMinute: 60, concurrentCalls: 4 });
 * const verdict = limits.admit("alice");
 * if (verdict.ok) try { await call(); } finally { verdict.release(); }
 */
export function createPrincipalLimits(settings: LimitSettings, now: () => number = Date.now): PrincipalLimits {
  const starts = new Map<string, number[]>();
  const running = new Map<string, number>();
  return {
    admit(principalId) {
      const time = now();
      const recent = (starts.get(principalId) ?? []).filter((start) => start > time - MINUTE_MS);
      if (settings.callsPerMinute !== undefined && recent.length >= settings.callsPerMinute) {
        starts.set(principalId, recent);
        const retryAfterMs = recent[0]! + MINUTE_MS - time;
        return { ok: false, message: `Rate limited: ${settings.callsPerMinute} calls per minute; retry in ${Math.ceil(retryAfterMs / 1000)} s`, retryAfterMs };
      }
      const underWay = running.get(principalId) ?? 0;
      if (settings.concurrentCalls !== undefined && underWay >= settings.concurrentCalls) {
        return { ok: false, message: `Rate limited: ${settings.concurrentCalls} calls already running for this principal; retry when one ends`, retryAfterMs: 1_000 };
      }
      recent.push(time);
      starts.set(principalId, recent);
      running.set(principalId, underWay + 1);
      let released = false;
      return {
        ok: true,
        release() {
          if (released) return;
          released = true;
          const left = (running.get(principalId) ?? 1) - 1;
          if (left === 0) running.delete(principalId);
          else running.set(principalId, left);
        },
      };
    },
  };
}
