/**
 * One configured MCP server over time: sessions come and go, this stays. It connects (never more
 * than one attempt at a time), keeps the tool list, reconnects in the background with capped
 * backoff and jitter after a failure or a drop, and hands calls a live session on demand.
 */
import type { McpServerEntry } from "./config/resolve-mcp-server.js";
import type { ErrorCode } from "../../core/errors/error-codes.js";
import { abortReasonCode, type Logger } from "../../core/plugin-contract.js";
import { backoffDelay, sleep } from "../../core/retry/backoff-delay.js";
import { createCallerRoutes, type CallerRoutes } from "./caller-routes.js";
import { createServerAuthorization, type AuthorizationHandler, type ServerAuthorization } from "./auth/server-authorization.js";
import type { OAuthTokenStore } from "./auth/token-store.js";
import type { ConnectedTransportKind } from "./create-transport.js";
import type { ElicitationHandler } from "./elicitation.js";
import type { SamplingHandler } from "./sampling.js";
import type { FetchLike } from "./guarded-fetch.js";
import { connectServer, listServerTools } from "./connect-server.js";
import type { McpSession } from "./mcp-session.js";
import type { McpServerEvents, McpServerInfo, McpServerState } from "./server-info.js";
import type { SessionFailure } from "./session-failure.js";
import type { ServerTool } from "./tool-definitions.js";

/**
 * Budget of one connection attempt (spawn or connect, `initialize`, listing tools). Not the entry's
 * `timeoutMs`: a server whose calls answer in a second may take far longer to start (`npx`
 * downloading it). A call waiting for a connection is bounded by its own deadline anyway.
 */
export const CONNECT_TIMEOUT_MS = 30_000;
/** A burst of `list_changed` notifications triggers one refresh. */
const LIST_CHANGED_DEBOUNCE_MS = 50;

export interface ConnectionContext {
  source: "config" | "runtime";
  logger: Logger;
  fetch: FetchLike;
  onElicitation?: ElicitationHandler;
  onSampling?: SamplingHandler;
  /** The server's `includeTools` / `excludeTools`: applied to every listing before anything else sees it. */
  selectTools?(tools: ServerTool[]): ServerTool[];
  /** Where OAuth servers keep their tokens, and who sends a person to log in. */
  oauth: { store: OAuthTokenStore; onAuthorization?: AuthorizationHandler };
  emit<Name extends keyof McpServerEvents>(event: Name, payload: McpServerEvents[Name]): void;
}

export type SessionOutcome = { ok: true; session: McpSession } | { ok: false; failure: SessionFailure };

export interface ServerConnection {
  readonly entry: McpServerEntry;
  readonly source: "config" | "runtime";
  /** OAuth of an http / sse server (absent for stdio servers and `"oauth": false`). */
  readonly authorization?: ServerAuthorization;
  /** A login finished (or was found unnecessary): connect now. */
  afterLogin(): Promise<void>;
  /** While `needs-login`: connect when another process (`toolexec auth login`) stored tokens since. True once connected. */
  resumeStoredLogin(): Promise<boolean>;
  info(): McpServerInfo;
  tools(): readonly ServerTool[];
  /** Called when `tools()` changed; returns the unsubscribe function. */
  onToolsChanged(listener: () => void): () => void;
  /** The calls under way on this server and their callers, to route the server's own requests. */
  readonly callers: CallerRoutes;
  /** Called for each `notifications/resources/updated` of any session; returns the unsubscribe function. */
  onResourceUpdated(listener: (update: { uri: string; title?: string }) => void): () => void;
  /** Called after each new session is up (a reconnection too); returns the unsubscribe function. */
  onConnected(listener: () => void): () => void;
  /** Begin connecting; resolves when the first attempt settles or `waitMs` passes, whichever is first. */
  start(waitMs: number): Promise<void>;
  /** A live session: the current one, or a new one connected now (waiting out a `Retry-After` within the deadline). */
  ensureSession(deadline: number, signal: AbortSignal): Promise<SessionOutcome>;
  /** The current session when it is alive (what `ensureSession` answers at once), without a promise. */
  liveSession(): McpSession | undefined;
  /** What a request on `session` ran into: a lost session is reset, a `Retry-After` remembered. */
  noteFailure(session: McpSession, failure: SessionFailure): void;
  close(): Promise<void>;
}

const closedFailure = (name: string): SessionFailure => ({ kind: "aborted", code: "EXECUTOR_CLOSED", message: `Server "${name}" was closed` });
const codeOf = (failure: SessionFailure): ErrorCode => failure.code ?? "SERVICE_UNAVAILABLE";

/**
 * @example
 * const connection = createServerConnection(entry, { source: "config", logger, fetch, emit });
 * await connection.start(5_000);
 */
export function createServerConnection(entry: McpServerEntry, context: ConnectionContext): ServerConnection {
  const { logger, emit } = context;
  const name = entry.name;
  const connectTimeoutMs = CONNECT_TIMEOUT_MS;
  let state: McpServerState = entry.enabled ? "connecting" : "disabled";
  let session: McpSession | undefined;
  let attempt: Promise<SessionOutcome> | undefined;
  let failures = 0;
  let lastError: SessionFailure | undefined;
  let timer: NodeJS.Timeout | undefined;
  let nextAttemptAt: number | undefined;
  /** The server's `Retry-After`: no attempt before this (epoch ms). */
  let notBefore = 0;
  let retryHintMs: number | undefined;
  let detected: ConnectedTransportKind | undefined;
  let connectedTransport: ConnectedTransportKind | undefined;
  let connectedAt: number | undefined;
  let everConnected = false;
  let closed = false;
  let started = false;
  /** Ends a connection attempt under way when the server is closed. */
  const closing = new AbortController();
  let tools: ServerTool[] = [];
  let toolsKey = "[]";
  let refreshTimer: NodeJS.Timeout | undefined;
  const listeners = new Set<() => void>();
  const callers = createCallerRoutes();
  const updateListeners = new Set<(update: { uri: string; title?: string }) => void>();
  const connectedListeners = new Set<() => void>();
  const authorization =
    entry.transport !== "stdio" && entry.oauth !== false
      ? createServerAuthorization({
          server: name,
          serverUrl: entry.url,
          settings: entry.oauth,
          store: context.oauth.store,
          fetch: context.fetch,
          ...(context.oauth.onAuthorization ? { onAuthorization: context.oauth.onAuthorization } : {}),
          warn: (message) => logger.warn(message),
        })
      : undefined;

  const setTools = (listed: ServerTool[]) => {
    const next = context.selectTools?.(listed) ?? listed;
    const key = JSON.stringify(next.map((tool) => tool.definition));
    if (key === toolsKey) return;
    toolsKey = key;
    tools = next;
    for (const listener of [...listeners]) listener();
  };

  const schedule = (delay: number, reason: string, announce = true) => {
    clearTimeout(timer);
    nextAttemptAt = Date.now() + delay;
    timer = setTimeout(() => {
      timer = undefined;
      void connectOnce(true);
    }, delay);
    // A reconnection timer alone must not keep the host process alive.
    timer.unref();
    if (announce) emit("server:retrying", { server: name, attempt: failures + 1, nextAttemptAt, reason });
  };

  const nextDelay = (failure: SessionFailure) => {
    if (failure.retryAfterMs !== undefined) notBefore = Math.max(notBefore, Date.now() + failure.retryAfterMs);
    const backoff = failures === 0 && retryHintMs !== undefined ? retryHintMs : backoffDelay(entry.retry, Math.max(0, failures - 1));
    return Math.max(backoff, notBefore - Date.now());
  };

  const onAttemptFailed = (failure: SessionFailure) => {
    failures++;
    lastError = failure;
    if (failure.code === "AUTH_REQUIRED") {
      // No background attempts: each would start a new login; the login itself reconnects.
      const first = state !== "needs-login";
      state = "needs-login";
      authorization?.markNeedsLogin();
      setTools([]);
      if (first) emit("server:disconnected", { server: name, reason: failure.message, code: "AUTH_REQUIRED", willRetry: false });
      return;
    }
    if (failure.kind === "permanent") {
      const first = state !== "failed";
      state = "failed";
      setTools([]);
      if (first) emit("server:disconnected", { server: name, reason: failure.message, code: codeOf(failure), willRetry: false });
      // Looked at again now and then, quietly: the fix may be outside mcp.json (a program installed, a key renewed).
      schedule(entry.retry.maxDelayMs, failure.message, false);
      return;
    }
    const wasUp = state !== "retrying";
    state = "retrying";
    const delay = nextDelay(failure);
    if (wasUp) emit("server:disconnected", { server: name, reason: failure.message, code: codeOf(failure), willRetry: true, nextAttemptAt: Date.now() + delay });
    schedule(delay, failure.message);
  };

  const onSessionDead = (dead: McpSession, failure: SessionFailure) => {
    if (dead !== session || closed) return;
    session = undefined;
    state = "retrying";
    lastError = failure;
    failures = 0;
    const delay = nextDelay(failure);
    emit("server:disconnected", { server: name, reason: failure.message, code: codeOf(failure), willRetry: true, nextAttemptAt: Date.now() + delay });
    schedule(delay, failure.message);
  };

  const refreshTools = () => {
    clearTimeout(refreshTimer);
    refreshTimer = setTimeout(async () => {
      const live = session;
      if (!live?.alive) return;
      const listed = await listServerTools(live, entry, logger, connectTimeoutMs);
      if (listed.ok && live === session) setTools(listed.tools);
      // A refresh cut off by close() or by the session's end is no one's concern.
      else if (!listed.ok && !closed && live === session) logger.warn(`MCP server "${name}": refreshing its tool list failed: ${listed.failure.message}`);
    }, LIST_CHANGED_DEBOUNCE_MS);
    refreshTimer.unref();
  };

  /** `background`: the retry timer's own attempt, which leaves a `retrying` server `retrying` (no call is waiting). */
  const attemptOnce = async (background: boolean): Promise<SessionOutcome> => {
    clearTimeout(timer);
    timer = undefined;
    nextAttemptAt = undefined;
    if (state !== "connected" && state !== "failed" && state !== "needs-login" && !(background && state === "retrying")) state = "connecting";
    // A list_changed that arrives while the first list is being fetched is replayed once connected.
    const holder: { session?: McpSession; changedEarly?: boolean } = {};
    const connected = await connectServer(
      {
        entry,
        fetch: authorization?.fetch ?? context.fetch,
        timeoutMs: connectTimeoutMs,
        signal: closing.signal,
        logger,
        ...(context.onElicitation ? { onElicitation: context.onElicitation } : {}),
        ...(context.onSampling ? { onSampling: context.onSampling } : {}),
        currentCaller: callers.current,
        ...(authorization ? { authProvider: authorization.provider } : {}),
        events: {
          onResourceUpdated: (update) => {
            for (const listener of [...updateListeners]) listener(update);
          },
          onDead: (failure) => holder.session && onSessionDead(holder.session, failure),
          onToolsListChanged: () => (holder.session ? holder.session === session && refreshTools() : (holder.changedEarly = true)),
          onRetryHint: (ms) => (retryHintMs = ms),
        },
      },
      detected,
      (kind) => (detected = kind),
    );
    if (closed) {
      if (connected.ok) await connected.session.close();
      return { ok: false, failure: closedFailure(name) };
    }
    if (!connected.ok) {
      onAttemptFailed(connected.failure);
      return connected;
    }
    const live = connected.session;
    holder.session = live;
    session = live;
    state = "connected";
    authorization?.markConnected();
    failures = 0;
    lastError = undefined;
    connectedAt = Date.now();
    connectedTransport = live.kind;
    setTools(connected.tools);
    if (holder.changedEarly) refreshTools();
    emit("server:connected", { server: name, transport: live.kind, tools: tools.map((tool) => tool.definition.name), reconnected: everConnected });
    everConnected = true;
    for (const listener of [...connectedListeners]) listener();
    return { ok: true, session: live };
  };

  /** At most one attempt at a time: callers and the background timer share it. */
  const connectOnce = (background = false): Promise<SessionOutcome> => {
    if (closed) return Promise.resolve({ ok: false, failure: closedFailure(name) });
    attempt ??= attemptOnce(background).finally(() => (attempt = undefined));
    return attempt;
  };

  const afterLogin = async () => {
    if (closed || !entry.enabled || session?.alive) return;
    if (state === "needs-login") state = "connecting";
    await connectOnce();
  };

  const resumeStoredLogin = async () => {
    if (state !== "needs-login" || !(await authorization?.loginStoredElsewhere())) return false;
    await afterLogin();
    return session?.alive === true;
  };

  return {
    entry,
    source: context.source,
    ...(authorization ? { authorization } : {}),
    afterLogin,
    resumeStoredLogin,
    info() {
      return {
        name,
        source: context.source,
        transport: entry.transport,
        ...(connectedTransport === undefined ? {} : { connectedTransport }),
        state,
        ...(entry.prefix ? {} : { prefix: false as const }),
        tools: tools.map((tool) => tool.definition.name),
        attempts: failures,
        ...(state === "connected" && connectedAt !== undefined ? { connectedAt } : {}),
        ...((state === "retrying" || state === "failed") && nextAttemptAt !== undefined ? { nextAttemptAt } : {}),
        ...(lastError === undefined ? {} : { lastError: { code: codeOf(lastError), message: lastError.message } }),
        ...(authorization ? { authorization: authorization.status() } : {}),
        ...(session?.client.getServerVersion() ? { serverInfo: { name: session.client.getServerVersion()!.name, version: session.client.getServerVersion()!.version } } : {}),
      };
    },
    tools: () => tools,
    onToolsChanged(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    callers,
    onResourceUpdated(listener) {
      updateListeners.add(listener);
      return () => updateListeners.delete(listener);
    },
    onConnected(listener) {
      connectedListeners.add(listener);
      return () => connectedListeners.delete(listener);
    },
    async start(waitMs) {
      if (!entry.enabled || closed) return;
      // A connection handed over by a reload is already running: only a first start connects.
      if (!started) {
        started = true;
        void connectOnce();
      }
      if (!attempt) return;
      let waitTimer: NodeJS.Timeout | undefined;
      await Promise.race([attempt, new Promise((resolve) => (waitTimer = setTimeout(resolve, waitMs)))]);
      clearTimeout(waitTimer);
    },
    async ensureSession(deadline, signal) {
      if (closed) return { ok: false, failure: closedFailure(name) };
      if (signal.aborted) return { ok: false, failure: { kind: "aborted", code: abortReasonCode(signal), message: "The call was aborted" } };
      if (session?.alive) return { ok: true, session };
      if (state === "needs-login" && (await resumeStoredLogin())) return { ok: true, session: session! };
      if ((state === "failed" || state === "needs-login") && lastError) return { ok: false, failure: { ...lastError, kind: "permanent" } };
      const wait = notBefore - Date.now();
      if (wait > 0) {
        if (Date.now() + wait >= deadline) {
          return { ok: false, failure: { kind: "not-sent", message: `Server "${name}" asked to be left alone for ${wait} ms, past the call's deadline`, retryAfterMs: wait } };
        }
        try {
          await sleep(wait, signal);
        } catch {
          return { ok: false, failure: { kind: "aborted", code: abortReasonCode(signal), message: "The call was aborted" } };
        }
      }
      let onAbort: (() => void) | undefined;
      const aborted = new Promise<SessionOutcome>((resolve) => {
        onAbort = () => resolve({ ok: false, failure: { kind: "aborted", code: abortReasonCode(signal), message: "The call was aborted while connecting" } });
        signal.addEventListener("abort", onAbort, { once: true });
      });
      const outcome = await Promise.race([connectOnce(), aborted]);
      signal.removeEventListener("abort", onAbort!);
      // The call itself was never sent: whatever stopped the connection, it is safe to try again.
      if (!outcome.ok && outcome.failure.kind !== "permanent" && outcome.failure.kind !== "aborted") {
        return { ok: false, failure: { ...outcome.failure, kind: "not-sent" } };
      }
      return outcome;
    },
    liveSession: () => (!closed && session?.alive ? session : undefined),
    noteFailure(failed, failure) {
      if (failure.retryAfterMs !== undefined) notBefore = Math.max(notBefore, Date.now() + failure.retryAfterMs);
      if (failure.sessionLost && failed.alive) failed.fail(failure);
    },
    async close() {
      if (closed) return;
      closed = true;
      closing.abort();
      clearTimeout(timer);
      clearTimeout(refreshTimer);
      listeners.clear();
      updateListeners.clear();
      connectedListeners.clear();
      const live = session;
      session = undefined;
      await Promise.all([live?.close(), attempt?.catch(() => undefined)]);
    },
  };
}
