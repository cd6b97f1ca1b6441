/**
 * When a server connection tries again: capped exponential backoff with jitter after failures in a
 * row, never before the server's `Retry-After`, and the server's own hint for the first wait.
 */
import type { McpServerEntry } from "./config/resolve-mcp-server.js";
import { backoffDelay } from "../../core/retry/backoff-delay.js";
import type { SessionFailure } from "./session-failure.js";

export interface RetrySchedule {
  /** Failed attempts in a row. */
  failures: number;
  /** Epoch ms of the next background attempt, once one is scheduled (until an attempt begins). */
  nextAttemptAt: number | undefined;
  /** The server's `Retry-After`: no attempt before this (epoch ms). */
  notBefore: number;
  noteRetryAfter(ms: number | undefined): void;
  /** The server's hint (a `Retry-After` on a 2xx stream): the first wait after a drop. */
  hint(ms: number): void;
  /** The wait before the next attempt after `failure` (its `Retry-After` remembered). */
  nextDelay(failure: SessionFailure): number;
  /** Run `attempt` in `delay` ms (replacing one scheduled); returns when, in epoch ms. */
  schedule(delay: number): number;
  /** An attempt begins: none is pending any more. */
  cancel(): void;
  /** The connection closed: the timer is stopped. */
  stop(): void;
}

export function createRetrySchedule(policy: McpServerEntry["retry"], attempt: () => void): RetrySchedule {
  let timer: NodeJS.Timeout | undefined;
  let retryHintMs: number | undefined;
  const schedule: RetrySchedule = {
    failures: 0,
    nextAttemptAt: undefined,
    notBefore: 0,
    noteRetryAfter(ms) {
      if (ms !== undefined) schedule.notBefore = Math.max(schedule.notBefore, Date.now() + ms);
    },
    hint(ms) {
      retryHintMs = ms;
    },
    nextDelay(failure) {
      schedule.noteRetryAfter(failure.retryAfterMs);
      const backoff = schedule.failures === 0 && retryHintMs !== undefined ? retryHintMs : backoffDelay(policy, Math.max(0, schedule.failures - 1));
      return Math.max(backoff, schedule.notBefore - Date.now());
    },
    schedule(delay) {
      clearTimeout(timer);
      const at = (schedule.nextAttemptAt = Date.now() + delay);
      timer = setTimeout(() => {
        timer = undefined;
        attempt();
      }, delay);
      // A reconnection timer alone must not keep the host process alive.
      timer.unref();
      return at;
    },
    cancel() {
      clearTimeout(timer);
      timer = undefined;
      schedule.nextAttemptAt = undefined;
    },
    stop() {
      clearTimeout(timer);
    },
  };
  return schedule;
}
