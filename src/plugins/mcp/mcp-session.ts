/**
 * One initialized MCP session: an SDK Client on one transport, from `initialize` until it dies or
 * is closed. It never reconnects (the server connection makes a new session for that); it turns
 * every way a request can end into a `SessionFailure` the retry rules understand, and ends
 * requests the SDK would leave waiting: a malformed message, a dead stdio process, an HTTP answer
 * stream that closed without an answer, an event stream whose session is gone.
 */
import { createRequire } from "node:module";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { LoggingMessageNotificationSchema, ResourceUpdatedNotificationSchema, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
import type { McpServerEntry } from "./config/resolve-mcp-server.js";
import { abortReasonCode, type CallerInfo, type Logger, type ToolProgress } from "../../core/plugin-contract.js";
import { createTransport, type BuiltTransport, type ConnectedTransportKind } from "./create-transport.js";
import { ELICITATION_CAPABILITY, handleElicitation, type ElicitationHandler } from "./elicitation.js";
import type { FetchLike } from "./guarded-fetch.js";
import type { HttpObserver } from "./observed-fetch.js";
import { observeTransport } from "./observe-transport.js";
import { createPendingRequests, type RequestOutcome } from "./pending-requests.js";
import { createRequestSignal } from "./request-signal.js";
import { handleSampling, SAMPLING_CAPABILITY, type SamplingHandler } from "./sampling.js";
import { classifyError, describeMalformed, excerpt, isMalformedMessageError, type SessionFailure } from "./session-failure.js";
import { LineTooLongError } from "./stdio-transport.js";

/** How the client introduces itself in `initialize`. */
export const CLIENT_INFO = { name: "toolexec", version: (createRequire(import.meta.url)("../../../package.json") as { version: string }).version };
/** An answer stream that ended is checked this long after, so the answer it carried is dispatched first. */
const STREAM_END_GRACE_MS = 50;
/** Politeness on close: an HTTP session is ended with DELETE, if the server answers this fast. */
const TERMINATE_SESSION_MS = 500;

export interface SessionEvents {
  /** The session died on its own (not through `close()`); called once. */
  onDead(failure: SessionFailure): void;
  onToolsListChanged(): void;
  onRetryHint(ms: number): void;
  /** The server says a resource a client subscribed to changed (`notifications/resources/updated`). */
  onResourceUpdated(update: { uri: string; title?: string }): void;
}

export interface OpenSessionOptions {
  entry: McpServerEntry;
  kind: ConnectedTransportKind;
  fetch: FetchLike;
  /** Budget of the whole connection attempt: spawn or connect, and `initialize`. */
  timeoutMs: number;
  /** Aborts the attempt (the server is being closed). */
  signal: AbortSignal;
  logger: Logger;
  onElicitation?: ElicitationHandler;
  onSampling?: SamplingHandler;
  /** The caller a server's own request or log message belongs to, if one can tell (caller-routes.ts). */
  currentCaller(): CallerInfo | undefined;
  /** OAuth for an http / sse server (docs/auth.md). */
  authProvider?: OAuthClientProvider;
  events: SessionEvents;
}

export interface SessionRequestOptions {
  signal?: AbortSignal;
  /** The SDK's own timeout; set beyond the call's deadline so the call's signal speaks first. */
  timeoutMs: number;
  onProgress?(progress: ToolProgress): void;
}

export type { RequestOutcome } from "./pending-requests.js";

export interface McpSession {
  readonly kind: ConnectedTransportKind;
  readonly client: Client;
  readonly alive: boolean;
  request<Schema extends z.ZodType>(request: { method: string; params?: Record<string, unknown> }, schema: Schema, options: SessionRequestOptions): Promise<RequestOutcome<z.infer<Schema>>>;
  /** End the session (reset): every request under way ends with `failure`. */
  fail(failure: SessionFailure): void;
  /** Close on purpose; requests under way end with `EXECUTOR_CLOSED`. Safe to call twice. */
  close(): Promise<void>;
}

const abortedFailure = (signal: AbortSignal): SessionFailure => ({
  kind: "aborted",
  code: abortReasonCode(signal),
  message: (signal.reason as Error)?.message ?? "The call was aborted",
});

/**
 * Open a session: start the transport and run `initialize`, within `timeoutMs`.
 *
 * @example
 * const opened = await openSession({ entry, kind: "stdio", fetch, timeoutMs: 10_000, logger, events });
 * if (opened.ok) await opened.session.request({ method: "tools/list" }, ListToolsResultSchema, { timeoutMs: 10_000 });
 */
export async function openSession(options: OpenSessionOptions): Promise<{ ok: true; session: McpSession } | { ok: false; failure: SessionFailure }> {
  const { entry, kind, events, logger } = options;
  const server = `Server "${entry.name}"`;
  const requests = createPendingRequests();
  let alive = true;
  let connected = false;
  let closing: Promise<void> | undefined;
  let lastStatus: { status: number; retryAfterMs?: number } | undefined;
  let failConnect: ((failure: SessionFailure) => void) | undefined;

  const die = (failure: SessionFailure) => {
    if (!alive) return;
    alive = false;
    // Requests still waiting were sent on this session, so they may have run, whatever ended it.
    const forPending: SessionFailure = failure.kind === "not-sent" ? { ...failure, kind: "lost" } : failure;
    requests.settleAll(forPending);
    failConnect?.(failure);
    if (connected) events.onDead(failure);
    void closeTransport();
  };

  const tooLarge = (): SessionFailure => ({
    kind: "too-large",
    code: "OUTPUT_TOO_LARGE",
    message: `${server} answered with more than ${entry.maxResponseBytes} bytes (maxResponseBytes)`,
    details: { maxResponseBytes: entry.maxResponseBytes },
  });
  const observer: HttpObserver = {
    onPostStatus(ids, status, retryAfterMs) {
      lastStatus = { status, retryAfterMs };
      for (const id of ids) {
        const pending = requests.withId(id);
        if (pending) Object.assign(pending, { status, retryAfterMs });
      }
    },
    onRetryHint: (ms) => events.onRetryHint(ms),
    onPostStreamEnd(ids, resumable, error) {
      // A resumable stream is the SDK's to resume; if that fails, onEventStreamLost ends the session.
      if (resumable || closing) return;
      setTimeout(() => {
        const reason = error ? `its answer stream broke (${(error as Error)?.message ?? String(error)})` : "it closed its answer stream without answering";
        for (const id of ids) requests.withId(id)?.settle({ kind: "lost", message: `${server} did not answer: ${reason}` });
      }, STREAM_END_GRACE_MS).unref();
    },
    onEventStreamEnd() {
      if (kind === "sse" && !closing) die({ kind: "lost", sessionLost: true, message: `${server} closed its SSE stream (it may have restarted)` });
    },
    onEventStreamLost(reason) {
      if (!closing) die({ kind: "lost", sessionLost: true, message: `${server} lost the session (${reason}); it may have restarted` });
    },
    onTooLarge(ids) {
      for (const id of ids) requests.withId(id)?.settle(tooLarge());
    },
    onEventTooLarge(id) {
      if (id !== undefined) return requests.withId(id)?.settle(tooLarge());
      const only = requests.onlyOne();
      if (only) only.settle(tooLarge());
      else die({ ...tooLarge(), sessionLost: true, message: `${tooLarge().message}, for a request it did not name; the connection was reset` });
    },
  };

  let built: BuiltTransport;
  try {
    built = createTransport(entry, kind, {
      observer,
      fetch: options.fetch,
      ...(options.authProvider ? { authProvider: options.authProvider } : {}),
      onStrayLine(line, count) {
        // Once per connection: a server that logs to stdout would otherwise flood the host's log.
        if (count === 1) logger.warn(`MCP server "${entry.name}" wrote a line to stdout that is not JSON-RPC (logs belong on stderr); such lines are skipped: ${excerpt(line)}`);
      },
    });
  } catch (error) {
    return { ok: false, failure: classifyError(error, { server: entry.name }) };
  }
  /** How a stdio server's connection ended, in words; the telling stderr lines when it did not end. */
  const stdioEnd = () => built.stdio?.endReason() ?? built.stdio?.stderrSummary();
  const transport = observeTransport(built.transport, {
    onMessage: requests.onMessage,
    onSend: requests.onSend,
    onUnknownReply(id, text) {
      if (closing) return;
      const failure: SessionFailure = { kind: "malformed", code: "INVALID_OUTPUT", message: `${server} answered a request it was never sent (id ${id}: ${text})` };
      // On stdio, a stray answer while one request waits is that request's, with a wrong id: it
      // alone fails, and the process (costly to respawn) is kept. Otherwise nobody can tell whose
      // answer it was, and every request waiting would wait out its budget: reset.
      const only = kind === "stdio" ? requests.onlyOne() : undefined;
      if (only) only.settle(failure);
      else die({ ...failure, sessionLost: true, message: `${failure.message}; the connection was reset` });
    },
    onError(error) {
      if (closing) return;
      if (isMalformedMessageError(error)) {
        die({ kind: "malformed", code: "INVALID_OUTPUT", sessionLost: true, message: `${server} sent a message that is not valid JSON-RPC (${describeMalformed(error)}); the connection was reset` });
      } else if (error instanceof LineTooLongError) {
        die({ kind: "too-large", code: "OUTPUT_TOO_LARGE", sessionLost: true, message: `${server} wrote a message larger than its buffer (maxResponseBytes ${entry.maxResponseBytes}); the connection was reset` });
      } else {
        logger.debug(`MCP server "${entry.name}": ${error.message}`);
      }
    },
    onClose() {
      // While connecting, the SDK closes the transport itself when `initialize` fails; that failure,
      // not this close, is the reason to report.
      if (closing || !connected) return;
      die({ kind: "lost", sessionLost: true, message: kind === "stdio" ? `${server} ${stdioEnd() ?? "exited"}` : `${server} closed the connection` });
    },
  });

  const client = new Client(CLIENT_INFO, { capabilities: { ...(options.onElicitation ? ELICITATION_CAPABILITY : {}), ...(options.onSampling ? SAMPLING_CAPABILITY : {}) } });
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => events.onToolsListChanged());
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, ({ params }) => events.onResourceUpdated(params));
  client.setNotificationHandler(LoggingMessageNotificationSchema, ({ params }) => {
    logger.debug(`MCP server "${entry.name}" [${params.level}]: ${typeof params.data === "string" ? params.data : JSON.stringify(params.data)}`);
    try {
      options.currentCaller()?.log?.(params);
    } catch (error) {
      logger.debug(`A caller's log handler failed: ${(error as Error)?.message ?? String(error)}`);
    }
  });
  if (options.onElicitation) handleElicitation(client, entry.name, options.onElicitation, options.currentCaller);
  if (options.onSampling) handleSampling(client, entry.name, options.onSampling, options.currentCaller);

  /** `politely`: end an HTTP session with DELETE first (on purpose only; a dead server would not answer). */
  const closeTransport = (politely = false): Promise<void> => {
    closing ??= (async () => {
      const http = built.transport as { terminateSession?: () => Promise<void> };
      if (politely && kind === "http" && connected && http.terminateSession) {
        await Promise.race([http.terminateSession().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, TERMINATE_SESSION_MS).unref())]);
      }
      // A stdio server's process group is stopped on a short schedule (stdio-transport.ts).
      await transport.close().catch((error: unknown) => logger.debug(`Closing MCP server "${entry.name}": ${(error as Error).message}`));
    })();
    return closing;
  };

  let connectTimer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const connectFailure = await new Promise<SessionFailure | undefined>((resolve) => {
    connectTimer = setTimeout(() => resolve({ kind: "lost", message: `${server} did not finish connecting within ${options.timeoutMs} ms` }), options.timeoutMs);
    failConnect = (failure) => resolve(failure);
    onAbort = () => resolve({ kind: "aborted", code: "EXECUTOR_CLOSED", message: `${server} was closed while connecting` });
    if (options.signal.aborted) onAbort();
    else options.signal.addEventListener("abort", onAbort, { once: true });
    client.connect(transport, { timeout: options.timeoutMs + 1_000 }).then(
      () => resolve(undefined),
      (error: unknown) => {
        const status = lastStatus && lastStatus.status >= 400 ? lastStatus : undefined;
        resolve(classifyError(error, { server: entry.name, ...(status ? { httpStatus: status.status, retryAfterMs: status.retryAfterMs } : {}) }));
      },
    );
  }).finally(() => {
    failConnect = undefined;
    clearTimeout(connectTimer);
    options.signal.removeEventListener("abort", onAbort!);
  });
  if (connectFailure || !alive) {
    alive = false;
    await closeTransport();
    const failure: SessionFailure = connectFailure ?? { kind: "lost", message: `${server} closed the connection while connecting` };
    // A stdio server that ended while connecting is reported as one that ends later is: how it
    // ended, with its telling stderr lines (not "closed the connection").
    const ended = built.stdio?.endReason();
    if (ended && failure.kind === "lost" && !failure.code) return { ok: false, failure: { ...failure, message: `${server} ${ended}` } };
    const stderr = built.stdio?.stderrSummary();
    return { ok: false, failure: stderr && !failure.message.includes(stderr) ? { ...failure, message: `${failure.message}: ${stderr}` } : failure };
  }
  connected = true;

  const session: McpSession = {
    kind,
    client,
    get alive() {
      return alive;
    },
    async request(request, schema, requestOptions) {
      if (!alive) return { ok: false, failure: { kind: "not-sent", sessionLost: true, message: `${server} is not connected` } };
      const caller = requestOptions.signal;
      if (caller?.aborted) return { ok: false, failure: abortedFailure(caller) };
      // A signal of the session's own, so a request ended here (not by the caller) can be withdrawn
      // from the SDK. The caller's abort is forwarded by hand: AbortSignal.any costs a WeakRef and
      // a FinalizationRegistry entry per request on Node 20, which shows in every call's time.
      const local = createRequestSignal();
      const forward = () => local.abort(caller!.reason);
      caller?.addEventListener("abort", forward, { once: true });
      const pending = requests.begin(requestOptions.onProgress);
      const { progressToken } = pending;
      try {
        // Our own progress token (not the SDK's `onprogress`), so progress is routed in arrival order.
        const sent = progressToken === undefined ? request : { ...request, params: { ...request.params, _meta: { ...(request.params?._meta as object | undefined), progressToken } } };
        let answer: Promise<unknown>;
        try {
          answer = client.request(sent as never, schema as never, { signal: local.signal, timeout: requestOptions.timeoutMs });
        } finally {
          requests.sentAll();
        }
        answer.then(
          (value) => pending.answer({ ok: true, value }),
          (error: unknown) => {
            if (caller?.aborted) return pending.answer({ ok: false, failure: abortedFailure(caller) });
            const status = pending.status !== undefined && pending.status >= 400 ? { httpStatus: pending.status, retryAfterMs: pending.retryAfterMs } : {};
            pending.answer({ ok: false, failure: classifyError(error, { server: entry.name, ...status }) });
          },
        );
        const outcome = (await pending.outcome) as RequestOutcome<z.infer<typeof schema>>;
        // Ended here while the session lives on: tell the SDK (and the server) to forget the request.
        if (pending.settledHere && alive && !outcome.ok) local.abort(new Error(outcome.failure.message));
        return outcome;
      } finally {
        caller?.removeEventListener("abort", forward);
        requests.end(pending);
      }
    },
    fail: die,
    async close() {
      if (alive) {
        alive = false;
        requests.settleAll({ kind: "aborted", code: "EXECUTOR_CLOSED", message: `${server} was closed while the call was under way` });
      }
      await closeTransport(true);
    },
  };
  return { ok: true, session };
}
