/**
 * One configured MCP server over time: sessions come and go, this stays. It connects (never more
 * than one attempt at a time), keeps the tool list, reconnects in the background with capped
 * backoff and jitter after a failure or a drop, and hands calls a live session on demand. The
 * steps of its life are in connection-lifecycle.ts.
 */
import type { McpServerEntry } from "./config/resolve-mcp-server.js";
import type { ServerStartMode } from "./config/mcp-server-schema.js";
import { abortReasonCode, type Logger } from "../../core/plugin-contract.js";
import { sleep } from "../../core/retry/backoff-delay.js";
import { createCallerRoutes, type CallerRoutes } from "./caller-routes.js";
import { createServerAuthorization, type AuthorizationHandler, type ServerAuthorization } from "./auth/server-authorization.js";
import type { OAuthTokenStore } from "./auth/token-store.js";
import { closedFailure, codeOf, connectOnce, type ConnectionRun } from "./connection-lifecycle.js";
import type { ElicitationHandler } from "./elicitation.js";
import type { SamplingHandler } from "./sampling.js";
import type { FetchLike } from "./guarded-fetch.js";
import { createListeners } from "./listeners.js";
import type { McpSession } from "./mcp-session.js";
import { holdServer, stayStopped } from "./on-demand-lifecycle.js";
import { createRetrySchedule } from "./retry-schedule.js";
import type { McpServerEvents, McpServerInfo } from "./server-info.js";
import { createServerToolList } from "./server-tool-list.js";
import { createPrincipalConnections, type PrincipalConnections } from "./principal-connections.js";
import type { SessionFailure } from "./session-failure.js";
import type { StartGate } from "./start-gate.js";
import type { ToolListCache } from "./tool-list-cache.js";
import type { ServerTool } from "./tool-definitions.js";

export { CONNECT_TIMEOUT_MS } from "./connection-lifecycle.js";

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
  /** The first-start budget of a package runner's server whose entry names none. */
  installTimeoutMs: number;
  /** When a stdio server whose entry (and `serverDefaults`) says nothing starts: the executor's `mcp.start`. */
  defaultStart: ServerStartMode;
  /** The executor's cap on stdio servers starting at once. */
  startGate: StartGate;
  /** Where lazy servers' tool lists are kept between runs (absent: none kept, a lazy server starts with the executor). */
  toolCache?: ToolListCache;
  /** Start-up waits out a package runner's first start (its download) instead of only the start-up wait. */
  waitForInstalls: boolean;
  /** This is one principal's connection to a per-user server (it has no principals of its own). */
  forPrincipal?: boolean;
}

export type SessionOutcome = { ok: true; session: McpSession } | { ok: false; failure: SessionFailure };

export interface ServerConnection {
  readonly entry: McpServerEntry;
  readonly source: "config" | "runtime";
  /** OAuth of an http / sse server (absent for stdio servers and `"oauth": false`). */
  readonly authorization?: ServerAuthorization;
  /** A per-user server's connections, one per principal (`"oauth": { "perUser": true }`). */
  readonly principals?: PrincipalConnections;
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
  /** Mark the server in use (a request, a resource subscription) until the returned function is called: it is not stopped as idle meanwhile. */
  hold(): () => void;
  /** What a request on `session` ran into: a lost session is reset, a `Retry-After` remembered. */
  noteFailure(session: McpSession, failure: SessionFailure): void;
  close(): Promise<void>;
}

/**
 * @example
 * const connection = createServerConnection(entry, { source: "config", logger, fetch, emit });
 * await connection.start(5_000);
 */
export function createServerConnection(entry: McpServerEntry, context: ConnectionContext): ServerConnection {
  const run: ConnectionRun = {
    entry,
    context,
    authorization: createAuthorization(entry, context),
    retries: createRetrySchedule(entry.retry, () => void connectOnce(run, true)),
    tools: createServerToolList(context.selectTools ? (tools) => context.selectTools!(tools) : undefined),
    callers: createCallerRoutes(),
    resourceUpdates: createListeners(),
    connected: createListeners(),
    closing: new AbortController(),
    state: !entry.enabled ? "disabled" : entry.unavailable !== undefined ? "unavailable" : "connecting",
    ...(entry.unavailable === undefined ? {} : { lastError: unavailableFailure(entry) }),
    everConnected: false,
    closed: false,
    started: false,
    busy: 0,
  };
  const { authorization } = run;
  const principals = entry.transport !== "stdio" && entry.oauth !== false && entry.oauth.perUser && !context.forPrincipal ? perUserConnections(entry, context, run) : undefined;
  run.principals = principals;
  return {
    entry,
    source: context.source,
    ...(authorization ? { authorization } : {}),
    ...(principals ? { principals } : {}),
    afterLogin: () => afterLogin(run),
    resumeStoredLogin: () => resumeStoredLogin(run),
    info: () => describeConnection(run),
    tools: () => run.tools.current(),
    onToolsChanged: run.tools.onChanged,
    callers: run.callers,
    onResourceUpdated: run.resourceUpdates.add,
    onConnected: run.connected.add,
    start: (waitMs) => startConnection(run, waitMs),
    ensureSession: (deadline, signal) => ensureSession(run, deadline, signal),
    liveSession: () => (!run.closed && run.session?.alive ? run.session : undefined),
    hold: () => holdServer(run),
    noteFailure(failed, failure) {
      run.retries.noteRetryAfter(failure.retryAfterMs);
      if (failure.sessionLost && failed.alive) failed.fail(failure);
    },
    close: () => closeConnection(run),
  };
}

function perUserConnections(entry: McpServerEntry, context: ConnectionContext, run: ConnectionRun): PrincipalConnections {
  return createPrincipalConnections({
    server: entry.name,
    store: context.oauth.store,
    create: (own) => createServerConnection(entry, { ...context, ...own, forPrincipal: true }),
    // Without a session of its own (no shared login) the server lists what a principal's session listed.
    onTools: (from) => {
      if (!run.session?.alive && !run.closed && from.tools().length > 0) run.tools.set([...from.tools()]);
    },
  });
}

/** OAuth of an http / sse server, unless its entry says `"oauth": false`. */
function createAuthorization(entry: McpServerEntry, context: ConnectionContext): ServerAuthorization | undefined {
  if (entry.transport === "stdio" || entry.oauth === false) return undefined;
  return createServerAuthorization({
    server: entry.name,
    serverUrl: entry.url,
    settings: entry.oauth,
    store: context.oauth.store,
    fetch: context.fetch,
    ...(context.oauth.onAuthorization ? { onAuthorization: context.oauth.onAuthorization } : {}),
    warn: (message) => context.logger.warn(message),
  });
}

async function afterLogin(run: ConnectionRun): Promise<void> {
  if (run.closed || !run.entry.enabled || run.entry.unavailable !== undefined || run.session?.alive) return;
  if (run.state === "needs-login") run.state = "connecting";
  await connectOnce(run);
}

async function resumeStoredLogin(run: ConnectionRun): Promise<boolean> {
  if (run.state !== "needs-login" || !(await run.authorization?.loginStoredElsewhere())) return false;
  await afterLogin(run);
  return run.session?.alive === true;
}

/** Why an unavailable server's calls fail: its entry's reason, permanently (until mcp.json or the environment changes). */
function unavailableFailure(entry: McpServerEntry): SessionFailure {
  return { kind: "permanent", code: "SERVICE_UNAVAILABLE", message: `Server "${entry.name}" is unavailable: ${entry.unavailable}` };
}

async function startConnection(run: ConnectionRun, waitMs: number): Promise<void> {
  if (run.state === "unavailable" && !run.started) {
    run.started = true;
    run.context.emit("server:unavailable", { server: run.entry.name, reason: run.entry.unavailable! });
  }
  if (!run.entry.enabled || run.entry.unavailable !== undefined || run.closed) return;
  // A connection handed over by a reload is already running: only a first start connects.
  if (!run.started) {
    run.started = true;
    if (await stayStopped(run)) return;
    void connectOnce(run);
  }
  if (!run.attempt) return;
  // The attempt ends within its first-start budget: a process that exits after the start-up wait would kill the download.
  if (run.state === "installing" && run.context.waitForInstalls) {
    await run.attempt;
    return;
  }
  let waitTimer: NodeJS.Timeout | undefined;
  await Promise.race([run.attempt, new Promise((resolve) => (waitTimer = setTimeout(resolve, waitMs)))]);
  clearTimeout(waitTimer);
}

const abortedCall = (signal: AbortSignal, message = "The call was aborted"): SessionOutcome => ({ ok: false, failure: { kind: "aborted", code: abortReasonCode(signal), message } });

/** The live session, or one connected now: after a `Retry-After` waited out within the deadline, unless the call is aborted first. */
async function ensureSession(run: ConnectionRun, deadline: number, signal: AbortSignal): Promise<SessionOutcome> {
  if (run.closed) return { ok: false, failure: closedFailure(run.entry.name) };
  if (signal.aborted) return abortedCall(signal);
  if (run.session?.alive) return { ok: true, session: run.session };
  if (run.state === "needs-login" && (await resumeStoredLogin(run))) return { ok: true, session: run.session! };
  if ((run.state === "failed" || run.state === "needs-login" || run.state === "unavailable") && run.lastError) return { ok: false, failure: { ...run.lastError, kind: "permanent" } };
  const wait = run.retries.notBefore - Date.now();
  if (wait > 0) {
    if (Date.now() + wait >= deadline) {
      return { ok: false, failure: { kind: "not-sent", message: `Server "${run.entry.name}" asked to be left alone for ${wait} ms, past the call's deadline`, retryAfterMs: wait } };
    }
    try {
      await sleep(wait, signal);
    } catch {
      return abortedCall(signal);
    }
  }
  if ((run.state === "stopped" || run.state === "idle") && !run.attempt) run.context.emit("server:starting", { server: run.entry.name, reason: "call" });
  const outcome = await connectUnlessAborted(run, signal);
  // The call itself was never sent: whatever stopped the connection, it is safe to try again.
  if (!outcome.ok && outcome.failure.kind !== "permanent" && outcome.failure.kind !== "aborted") {
    return { ok: false, failure: { ...outcome.failure, kind: "not-sent" } };
  }
  return outcome;
}

/** The shared attempt, raced against the call's abort (the attempt goes on for others). */
async function connectUnlessAborted(run: ConnectionRun, signal: AbortSignal): Promise<SessionOutcome> {
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<SessionOutcome>((resolve) => {
    onAbort = () => resolve(abortedCall(signal, "The call was aborted while connecting"));
    signal.addEventListener("abort", onAbort, { once: true });
  });
  const outcome = await Promise.race([connectOnce(run), aborted]);
  signal.removeEventListener("abort", onAbort!);
  return outcome;
}

function describeConnection(run: ConnectionRun): McpServerInfo {
  const { entry, state, lastError, connectedAt, connectedTransport, authorization, session } = run;
  const { nextAttemptAt } = run.retries;
  const server = session?.client.getServerVersion();
  return {
    name: entry.name,
    ...(entry.configKey === undefined ? {} : { configKey: entry.configKey }),
    source: run.context.source,
    transport: entry.transport,
    ...(connectedTransport === undefined ? {} : { connectedTransport }),
    state,
    ...(entry.prefix ? {} : { prefix: false as const }),
    tools: run.tools.current().map((tool) => tool.definition.name),
    attempts: run.retries.failures,
    ...(state === "connected" && connectedAt !== undefined ? { connectedAt } : {}),
    ...((state === "retrying" || state === "failed") && nextAttemptAt !== undefined ? { nextAttemptAt } : {}),
    ...(lastError === undefined ? {} : { lastError: { code: codeOf(lastError), message: lastError.message } }),
    ...(authorization ? { authorization: authorization.status() } : {}),
    ...(run.principals ? { perUser: true as const } : {}),
    ...(server ? { serverInfo: { name: server.name, version: server.version } } : {}),
  };
}

async function closeConnection(run: ConnectionRun): Promise<void> {
  if (run.closed) return;
  run.closed = true;
  run.closing.abort();
  run.retries.stop();
  clearTimeout(run.refreshTimer);
  clearTimeout(run.idleTimer);
  run.tools.clearListeners();
  run.resourceUpdates.clear();
  run.connected.clear();
  const live = run.session;
  run.session = undefined;
  await Promise.all([live?.close(), run.attempt?.catch(() => undefined), run.stopping, run.principals?.close()]);
}
