/**
 * How a session watches its transport: the HTTP observer (statuses, answer streams that end
 * without an answer, sizes) and the transport hooks (stray answers, malformed messages, the
 * close). Each turns what it sees into the end of one request or, when no one can tell whose it
 * was, into a reset of the session.
 */
import type { HttpObserver } from "./observed-fetch.js";
import type { TransportHooks } from "./observe-transport.js";
import { describeMalformed, isMalformedMessageError, type SessionFailure } from "./session-failure.js";
import { dieSession, tooLarge, type SessionRun } from "./session-run.js";
import { LineTooLongError } from "./stdio-transport.js";

/** An answer stream that ended is checked this long after, so the answer it carried is dispatched first. */
const STREAM_END_GRACE_MS = 50;

export function createSessionObserver(run: SessionRun): HttpObserver {
  const { requests, server, events } = run;
  return {
    onPostStatus(ids, status, retryAfterMs) {
      run.lastStatus = { status, retryAfterMs };
      for (const id of ids) {
        const pending = requests.withId(id);
        if (pending) Object.assign(pending, { status, retryAfterMs });
      }
    },
    onRetryHint: (ms) => events.onRetryHint(ms),
    onPostStreamEnd(ids, resumable, error) {
      // A resumable stream is the SDK's to resume; if that fails, onEventStreamLost ends the session.
      if (resumable || run.closing) return;
      setTimeout(() => {
        const reason = error ? `its answer stream broke (${(error as Error)?.message ?? String(error)})` : "it closed its answer stream without answering";
        for (const id of ids) requests.withId(id)?.settle({ kind: "lost", message: `${server} did not answer: ${reason}` });
      }, STREAM_END_GRACE_MS).unref();
    },
    onEventStreamEnd() {
      if (run.kind === "sse" && !run.closing) dieSession(run, { kind: "lost", sessionLost: true, message: `${server} closed its SSE stream (it may have restarted)` });
    },
    onEventStreamLost(reason) {
      if (!run.closing) dieSession(run, { kind: "lost", sessionLost: true, message: `${server} lost the session (${reason}); it may have restarted` });
    },
    onTooLarge(ids) {
      for (const id of ids) requests.withId(id)?.settle(tooLarge(run));
    },
    onEventTooLarge(id) {
      if (id !== undefined) return requests.withId(id)?.settle(tooLarge(run));
      const only = requests.onlyOne();
      if (only) only.settle(tooLarge(run));
      else dieSession(run, { ...tooLarge(run), sessionLost: true, message: `${tooLarge(run).message}, for a request it did not name; the connection was reset` });
    },
  };
}

export function createTransportHooks(run: SessionRun): TransportHooks {
  const { requests, server, kind, entry, logger } = run;
  /** How a stdio server's connection ended, in words; the telling stderr lines when it did not end. */
  const stdioEnd = () => run.built?.stdio?.endReason() ?? run.built?.stdio?.stderrSummary();
  return {
    onMessage: requests.onMessage,
    onSend: requests.onSend,
    onUnknownReply(id, text) {
      if (run.closing) return;
      const failure: SessionFailure = { kind: "malformed", code: "INVALID_OUTPUT", message: `${server} answered a request it was never sent (id ${id}: ${text})` };
      // On stdio, a stray answer while one request waits is that request's, with a wrong id: it
      // alone fails, and the process (costly to respawn) is kept. Otherwise nobody can tell whose
      // answer it was, and every request waiting would wait out its budget: reset.
      const only = kind === "stdio" ? requests.onlyOne() : undefined;
      if (only) only.settle(failure);
      else dieSession(run, { ...failure, sessionLost: true, message: `${failure.message}; the connection was reset` });
    },
    onError(error) {
      if (run.closing) return;
      if (isMalformedMessageError(error)) {
        dieSession(run, { kind: "malformed", code: "INVALID_OUTPUT", sessionLost: true, message: `${server} sent a message that is not valid JSON-RPC (${describeMalformed(error)}); the connection was reset` });
      } else if (error instanceof LineTooLongError) {
        // The buffer is not maxResponseBytes itself (a tools/list of 11 MiB failed whatever it was set to below 10 MiB): say what holds.
        const buffer = `its stdio buffer holds the larger of 10 MiB and maxResponseBytes + 1 MiB, and its maxResponseBytes is ${entry.maxResponseBytes}`;
        dieSession(run, { kind: "too-large", code: "OUTPUT_TOO_LARGE", sessionLost: true, message: `${server} wrote ${error.message} on stdout (${buffer}); the connection was reset. If the message is legitimate (a long tool list, a large result), raise "maxResponseBytes" in its entry above its size` });
      } else {
        logger.debug(`MCP server "${entry.name}": ${error.message}`);
      }
    },
    onClose() {
      // While connecting, the SDK closes the transport itself when `initialize` fails; that failure,
      // not this close, is the reason to report.
      if (run.closing || !run.connected) return;
      dieSession(run, { kind: "lost", sessionLost: true, message: kind === "stdio" ? `${server} ${stdioEnd() ?? "exited"}` : `${server} closed the connection` });
    },
  };
}
