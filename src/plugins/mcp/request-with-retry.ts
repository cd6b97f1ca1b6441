/**
 * The retry rules for one request, all within the call's deadline:
 * - not sent (refused connection, lost session, 429/503): reconnect if needed and send again;
 * - sent, then the connection died: again only when the request is safe to repeat (a read-only or
 *   idempotent tool, a listing); otherwise `SERVICE_UNAVAILABLE`, never a second run;
 * - a login needed (`AUTH_REQUIRED`) while the host answers `onAuthorization`: wait for that login
 *   once, then send again;
 * - anything else (the server's own error, a malformed or oversized answer, the deadline): no retry.
 * When retries are spent, or the next wait would pass the deadline, it answers at once.
 */
import { abortReasonCode } from "../../core/plugin-contract.js";
import { backoffDelay, sleep } from "../../core/retry/backoff-delay.js";
import type { McpSession, RequestOutcome } from "./mcp-session.js";
import type { ServerConnection } from "./server-connection.js";
import type { SessionFailure } from "./session-failure.js";

export interface RetryOptions {
  deadline: number;
  signal: AbortSignal;
  /** May the request run twice? (read-only or idempotent tool, or a listing) */
  repeatable: boolean;
  /** What is being done, for messages: `"github__create_issue"`. */
  what: string;
}

const unavailable = (failure: SessionFailure, message: string): { ok: false; failure: SessionFailure } => ({
  ok: false,
  failure: { ...failure, code: "SERVICE_UNAVAILABLE", message },
});

/**
 * @example
 * const outcome = await requestWithRetry(connection, (session) => session.request(call, CallToolResultSchema, options), retry);
 */
export async function requestWithRetry<T>(connection: ServerConnection, send: (session: McpSession) => Promise<RequestOutcome<T>>, options: RetryOptions): Promise<RequestOutcome<T>> {
  // In use from the first look at the session to the answer: an idle stop cannot come in between.
  const release = connection.hold();
  try {
    return await sendWithRetry(connection, send, options);
  } finally {
    release();
  }
}

async function sendWithRetry<T>(connection: ServerConnection, send: (session: McpSession) => Promise<RequestOutcome<T>>, options: RetryOptions): Promise<RequestOutcome<T>> {
  const { signal, deadline } = options;
  const policy = connection.entry.retry;
  let waitedForLogin = false;
  for (let attempt = 0; ; attempt++) {
    // The usual case needs no promise: the session is alive and the call not aborted.
    const live = signal.aborted ? undefined : connection.liveSession();
    const ensured = live ? { ok: true as const, session: live } : await connection.ensureSession(deadline, signal);
    let outcome: RequestOutcome<T>;
    if (ensured.ok) {
      outcome = await send(ensured.session);
      if (!outcome.ok) connection.noteFailure(ensured.session, outcome.failure);
    } else {
      outcome = ensured;
    }
    if (outcome.ok) return outcome;
    const { failure } = outcome;
    if (signal.aborted) return { ok: false, failure: { kind: "aborted", code: abortReasonCode(signal), message: (signal.reason as Error)?.message ?? failure.message } };
    if (failure.code === "AUTH_REQUIRED" && !waitedForLogin && connection.authorization?.interactive) {
      waitedForLogin = true;
      if (await connection.authorization.waitForLogin(deadline, signal)) continue;
    }
    if (failure.kind === "permanent") return { ok: false, failure: { ...failure, code: failure.code ?? "SERVICE_UNAVAILABLE" } };
    if (failure.kind !== "not-sent" && failure.kind !== "lost") return outcome;
    if (failure.kind === "lost" && !options.repeatable) {
      return unavailable(failure, `${failure.message} while "${options.what}" was running; not retried because the tool is not marked read-only or idempotent, so it may have run`);
    }
    if (attempt >= policy.retries) {
      return unavailable(failure, `${failure.message}; gave up after ${attempt + 1} attempt${attempt === 0 ? "" : "s"}`);
    }
    // A lost session wants a new one, not a pause: the first retry goes at once.
    const delay = attempt === 0 && failure.sessionLost && failure.retryAfterMs === undefined ? 0 : Math.max(backoffDelay(policy, attempt), failure.retryAfterMs ?? 0);
    if (Date.now() + delay >= deadline) {
      return unavailable(failure, `${failure.message}; no time is left for another attempt before the call's deadline`);
    }
    try {
      await sleep(delay, signal);
    } catch {
      return { ok: false, failure: { kind: "aborted", code: abortReasonCode(signal), message: (signal.reason as Error)?.message ?? "The call was aborted" } };
    }
  }
}
