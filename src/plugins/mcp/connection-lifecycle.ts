/**
 * The life of one server connection: attempts (one at a time), what a failed attempt or a dead
 * session leads to (retrying, failed, needs-login), and the tool list refreshed on `list_changed`.
 * The steps share one `ConnectionRun`; server-connection.ts gives them their public face.
 */
import type { McpServerEntry } from "./config/resolve-mcp-server.js";
import type { ErrorCode } from "../../core/errors/error-codes.js";
import type { CallerRoutes } from "./caller-routes.js";
import type { ServerAuthorization } from "./auth/server-authorization.js";
import { connectServer, listServerTools, type ConnectOutcome } from "./connect-server.js";
import type { ConnectedTransportKind } from "./create-transport.js";
import type { Listeners } from "./listeners.js";
import type { McpSession, OpenSessionOptions } from "./mcp-session.js";
import { armIdleStop, isLazy } from "./on-demand-lifecycle.js";
import { preparePythonServer } from "./python-server-start.js";
import type { RetrySchedule } from "./retry-schedule.js";
import type { ConnectionContext, SessionOutcome } from "./server-connection.js";
import type { McpServerState } from "./server-info.js";
import type { ServerToolList } from "./server-tool-list.js";
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

/** One connection's moving parts, as its steps share them. */
export interface ConnectionRun {
  readonly entry: McpServerEntry;
  readonly context: ConnectionContext;
  readonly authorization: ServerAuthorization | undefined;
  readonly retries: RetrySchedule;
  readonly tools: ServerToolList;
  readonly callers: CallerRoutes;
  readonly resourceUpdates: Listeners<[{ uri: string; title?: string }]>;
  readonly connected: Listeners;
  /** Ends a connection attempt under way when the server is closed. */
  readonly closing: AbortController;
  state: McpServerState;
  session?: McpSession;
  attempt?: Promise<SessionOutcome>;
  lastError?: SessionFailure;
  /** The transport an `auto` entry turned out to speak, tried first next time. */
  detected?: ConnectedTransportKind;
  connectedTransport?: ConnectedTransportKind;
  connectedAt?: number;
  everConnected: boolean;
  closed: boolean;
  started: boolean;
  refreshTimer?: NodeJS.Timeout;
  /** Requests under way and resource subscriptions: while above zero, the server is never stopped as idle. */
  busy: number;
  idleTimer?: NodeJS.Timeout;
  /** The close of a session stopped as idle; the next attempt waits for it (one process at a time). */
  stopping?: Promise<void>;
  /** A per-user server's principals' connections, closed with it. */
  principals?: { close(): Promise<void> };
}

export const closedFailure = (name: string): SessionFailure => ({ kind: "aborted", code: "EXECUTOR_CLOSED", message: `Server "${name}" was closed` });
export const codeOf = (failure: SessionFailure): ErrorCode => failure.code ?? "SERVICE_UNAVAILABLE";

/**
 * The budget of the first attempt of a package runner's server (`npx -y …`) in this process, which
 * may download it first; undefined for every other attempt.
 */
function firstStartBudget(run: ConnectionRun): number | undefined {
  const { entry } = run;
  if (entry.transport !== "stdio" || entry.packageRunner === undefined || run.everConnected || run.retries.failures > 0) return undefined;
  return entry.installTimeoutMs ?? run.context.installTimeoutMs;
}

/** At most one attempt at a time: callers and the background timer share it. */
export function connectOnce(run: ConnectionRun, background = false): Promise<SessionOutcome> {
  if (run.closed) return Promise.resolve({ ok: false, failure: closedFailure(run.entry.name) });
  run.attempt ??= attemptOnce(run, background).finally(() => (run.attempt = undefined));
  return run.attempt;
}

/** `background`: the retry timer's own attempt, which leaves a `retrying` server `retrying` (no call is waiting). */
async function attemptOnce(run: ConnectionRun, background: boolean): Promise<SessionOutcome> {
  run.retries.cancel();
  const { state, entry } = run;
  const installBudget = firstStartBudget(run);
  if (installBudget !== undefined && entry.transport === "stdio") {
    run.state = "installing";
    const runner = entry.packageRunner === "custom" ? entry.command : entry.packageRunner!;
    // The fields let a host show it before it can hear events (the CLI's progress line during start-up).
    run.context.logger.info(`MCP server "${entry.name}" starts for the first time through ${runner}, which may download it first: allowing up to ${Math.round(installBudget / 1000)} s`, { event: "server:installing", server: entry.name, runner, budgetMs: installBudget });
    run.context.emit("server:installing", { server: entry.name, command: entry.command, budgetMs: installBudget });
  } else if (state !== "connected" && state !== "failed" && state !== "needs-login" && !(background && state === "retrying")) run.state = "connecting";
  // A list_changed that arrives while the first list is being fetched is replayed once connected.
  const holder: { session?: McpSession; changedEarly?: boolean } = {};
  const prepared = await preparePythonServer(entry, run.context.logger, (event, payload) => run.context.emit(event, payload));
  const connected = prepared.ok ? await startGated(run, () => connectServer({ ...attemptOptions(run, holder, installBudget ?? CONNECT_TIMEOUT_MS), entry: prepared.entry }, run.detected, (kind) => (run.detected = kind))) : prepared;
  if (run.closed) {
    if (connected.ok) await connected.session.close();
    return { ok: false, failure: closedFailure(run.entry.name) };
  }
  if (!connected.ok) {
    onAttemptFailed(run, connected.failure);
    return connected;
  }
  holder.session = connected.session;
  adoptSession(run, connected.session, connected.tools, holder.changedEarly === true);
  if (isLazy(run)) void run.context.toolCache?.write(run.entry, connected.listed);
  armIdleStop(run);
  return { ok: true, session: connected.session };
}

/**
 * A stdio attempt waits for the process an idle stop is ending, then for a slot of the executor's
 * start cap (`maxConcurrentStarts`); other transports start at once.
 */
async function startGated(run: ConnectionRun, connect: () => Promise<ConnectOutcome>): Promise<ConnectOutcome> {
  if (run.entry.transport !== "stdio") return connect();
  await run.stopping;
  try {
    return await run.context.startGate.run(run.closing.signal, connect);
  } catch {
    return { ok: false, failure: closedFailure(run.entry.name) };
  }
}

/** What `connectServer` needs for one attempt; `holder` gets the session once it is up, for its events. */
function attemptOptions(run: ConnectionRun, holder: { session?: McpSession; changedEarly?: boolean }, timeoutMs: number): Omit<OpenSessionOptions, "kind"> {
  const { context, authorization } = run;
  return {
    entry: run.entry,
    fetch: authorization?.fetch ?? context.fetch,
    timeoutMs,
    signal: run.closing.signal,
    logger: context.logger,
    ...(context.onElicitation ? { onElicitation: context.onElicitation } : {}),
    ...(context.onSampling ? { onSampling: context.onSampling } : {}),
    currentCaller: run.callers.current,
    ...(authorization ? { authProvider: authorization.provider } : {}),
    events: {
      onResourceUpdated: (update) => run.resourceUpdates.notify(update),
      onDead: (failure) => holder.session && onSessionDead(run, holder.session, failure),
      onToolsListChanged: () => (holder.session ? holder.session === run.session && refreshTools(run) : (holder.changedEarly = true)),
      onRetryHint: (ms) => run.retries.hint(ms),
    },
  };
}

/** A new session is up: it is the connection's now, with its tools; listeners hear of it. */
function adoptSession(run: ConnectionRun, live: McpSession, tools: ServerTool[], changedEarly: boolean): void {
  run.session = live;
  run.state = "connected";
  run.authorization?.markConnected();
  run.retries.failures = 0;
  run.lastError = undefined;
  run.connectedAt = Date.now();
  run.connectedTransport = live.kind;
  run.tools.set(tools);
  if (changedEarly) refreshTools(run);
  const names = run.tools.current().map((tool) => tool.definition.name);
  run.context.emit("server:connected", { server: run.entry.name, transport: live.kind, tools: names, reconnected: run.everConnected });
  run.everConnected = true;
  run.connected.notify();
}

function scheduleRetry(run: ConnectionRun, delay: number, reason: string, announce = true): void {
  const nextAttemptAt = run.retries.schedule(delay);
  if (announce) run.context.emit("server:retrying", { server: run.entry.name, attempt: run.retries.failures + 1, nextAttemptAt, reason });
}

function onAttemptFailed(run: ConnectionRun, failure: SessionFailure): void {
  const { entry, context } = run;
  run.retries.failures++;
  run.lastError = failure;
  if (failure.code === "AUTH_REQUIRED") {
    // No background attempts: each would start a new login; the login itself reconnects.
    const first = run.state !== "needs-login";
    run.state = "needs-login";
    run.authorization?.markNeedsLogin();
    run.tools.set([]);
    if (first) context.emit("server:disconnected", { server: entry.name, reason: failure.message, code: "AUTH_REQUIRED", willRetry: false });
    return;
  }
  if (failure.kind === "permanent") {
    const first = run.state !== "failed";
    run.state = "failed";
    run.tools.set([]);
    if (first) context.emit("server:disconnected", { server: entry.name, reason: failure.message, code: codeOf(failure), willRetry: false });
    // Looked at again now and then, quietly: the fix may be outside mcp.json (a program installed, a key renewed).
    scheduleRetry(run, entry.retry.maxDelayMs, failure.message, false);
    return;
  }
  const wasUp = run.state !== "retrying";
  run.state = "retrying";
  const delay = run.retries.nextDelay(failure);
  if (wasUp) context.emit("server:disconnected", { server: entry.name, reason: failure.message, code: codeOf(failure), willRetry: true, nextAttemptAt: Date.now() + delay });
  scheduleRetry(run, delay, failure.message);
}

function onSessionDead(run: ConnectionRun, dead: McpSession, failure: SessionFailure): void {
  if (dead !== run.session || run.closed) return;
  run.session = undefined;
  run.state = "retrying";
  run.lastError = failure;
  run.retries.failures = 0;
  const delay = run.retries.nextDelay(failure);
  run.context.emit("server:disconnected", { server: run.entry.name, reason: failure.message, code: codeOf(failure), willRetry: true, nextAttemptAt: Date.now() + delay });
  scheduleRetry(run, delay, failure.message);
}

function refreshTools(run: ConnectionRun): void {
  const { entry, context } = run;
  clearTimeout(run.refreshTimer);
  run.refreshTimer = setTimeout(async () => {
    const live = run.session;
    if (!live?.alive) return;
    const listed = await listServerTools(live, entry, context.logger, CONNECT_TIMEOUT_MS);
    if (listed.ok && live === run.session) {
      run.tools.set(listed.tools);
      if (isLazy(run)) void run.context.toolCache?.write(run.entry, listed.listed);
    }
    // A refresh cut off by close() or by the session's end is no one's concern.
    else if (!listed.ok && !run.closed && live === run.session) context.logger.warn(`MCP server "${entry.name}": refreshing its tool list failed: ${listed.failure.message}`);
  }, LIST_CHANGED_DEBOUNCE_MS);
  run.refreshTimer.unref();
}
