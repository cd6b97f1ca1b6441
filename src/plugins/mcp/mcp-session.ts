/**
 * One initialized MCP session: an SDK Client on one transport, from `initialize` until it dies or
 * is closed. It never reconnects (the server connection makes a new session for that); it turns
 * every way a request can end into a `SessionFailure` the retry rules understand, and ends
 * requests the SDK would leave waiting: a malformed message, a dead stdio process, an HTTP answer
 * stream that closed without an answer, an event stream whose session is gone.
 */
import { createRequire } from "node:module";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { LoggingMessageNotificationSchema, ResourceUpdatedNotificationSchema, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
import type { McpServerEntry } from "./config/resolve-mcp-server.js";
import type { CallerInfo, Logger, ToolProgress } from "../../core/plugin-contract.js";
import { createTransport, type BuiltTransport, type ConnectedTransportKind, type ModernHttpTransport } from "./create-transport.js";
import { refusedForModernEra, type ProtocolEra } from "./protocol-era.js";
import { ELICITATION_CAPABILITY, handleElicitation, type ElicitationHandler } from "./elicitation.js";
import type { FetchLike } from "./guarded-fetch.js";
import { observeTransport } from "./observe-transport.js";
import { createPendingRequests, type RequestOutcome } from "./pending-requests.js";
import { handleSampling, SAMPLING_CAPABILITY, type SamplingHandler } from "./sampling.js";
import { classifyError, excerpt, type SessionFailure } from "./session-failure.js";
import { sendSessionRequest } from "./session-request.js";
import { closeSessionTransport, dieSession, type SessionRun } from "./session-run.js";
import { createSessionObserver, createTransportHooks } from "./session-watchers.js";

/** How the client introduces itself in `initialize`. */
export const CLIENT_INFO = { name: "toolexec", version: (createRequire(import.meta.url)("../../../package.json") as { version: string }).version };

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

/** What the session's users ask of its client, whichever era's SDK client it is. */
export type SessionClient = Pick<Client, "getServerCapabilities" | "getServerVersion" | "request" | "close">;

export interface McpSession {
  readonly kind: ConnectedTransportKind;
  /** `modern`: the server speaks only 2026-07-28, and the session's client is the SDK v2 one. */
  readonly era: ProtocolEra;
  readonly client: SessionClient;
  readonly alive: boolean;
  request<Schema extends z.ZodType>(request: { method: string; params?: Record<string, unknown> }, schema: Schema, options: SessionRequestOptions): Promise<RequestOutcome<z.infer<Schema>>>;
  /** End the session (reset): every request under way ends with `failure`. */
  fail(failure: SessionFailure): void;
  /** Close on purpose; requests under way end with `EXECUTOR_CLOSED`. Safe to call twice. */
  close(): Promise<void>;
}

type CreateModernClient = typeof import("./modern-client.js").createModernClient;

type OpenOutcome = { ok: true; session: McpSession } | { ok: false; failure: SessionFailure };

/**
 * Open a session: start the transport and run `initialize`, within `timeoutMs`.
 *
 * @example
 * const opened = await openSession({ entry, kind: "stdio", fetch, timeoutMs: 10_000, logger, events });
 * if (opened.ok) await opened.session.request({ method: "tools/list" }, ListToolsResultSchema, { timeoutMs: 10_000 });
 */
export async function openSession(options: OpenSessionOptions): Promise<OpenOutcome> {
  // A server found 2026-only is reopened in that era straight away (no refused `initialize` first).
  if (eraOf.get(options.entry) !== "modern") {
    const legacy = await openSessionIn("legacy", options);
    if (legacy.ok || !refusedForModernEra(legacy.failure)) return legacy;
  }
  const modern = await openSessionIn("modern", options);
  if (modern.ok) eraOf.set(options.entry, "modern");
  // A server that went back to the 2025 era is tried that way again next time.
  else if (modern.failure.kind === "permanent") eraOf.delete(options.entry);
  return modern;
}

/** The era each server entry was last found to speak; an entry reloaded from config is found again. */
const eraOf = new WeakMap<McpServerEntry, ProtocolEra>();

async function openSessionIn(era: ProtocolEra, options: OpenSessionOptions): Promise<OpenOutcome> {
  const { entry, kind, events, logger } = options;
  const run: SessionRun = { entry, kind, events, logger, server: `Server "${entry.name}"`, requests: createPendingRequests(), alive: true, connected: false };
  const modern = era === "modern" ? await import("./modern-client.js") : undefined;
  try {
    run.built = buildTransport(run, options, modern?.ModernHttpClientTransport);
  } catch (error) {
    return { ok: false, failure: classifyError(error, { server: entry.name }) };
  }
  const transport = (run.transport = observeTransport(run.built.transport, createTransportHooks(run)));
  const client = modern ? (createModernClientOf(modern.createModernClient, run, options) as unknown as Client) : createClient(run, options);
  const connectFailure = await initialize(run, client, transport, options);
  if (connectFailure || !run.alive) return { ok: false, failure: await failedConnecting(run, connectFailure) };
  run.connected = true;
  return { ok: true, session: sessionOf(run, client, era) };
}

function buildTransport(run: SessionRun, options: OpenSessionOptions, modernHttpTransport: ModernHttpTransport | undefined): BuiltTransport {
  const { entry, logger } = run;
  return createTransport(entry, run.kind, {
    ...(modernHttpTransport ? { modernHttpTransport } : {}),
    observer: createSessionObserver(run),
    fetch: options.fetch,
    ...(options.authProvider ? { authProvider: options.authProvider } : {}),
    onStrayLine(line, count) {
      // Once per connection: a server that logs to stdout would otherwise flood the host's log.
      if (count === 1) logger.warn(`MCP server "${entry.name}" wrote a line to stdout that is not JSON-RPC (logs belong on stderr); such lines are skipped: ${excerpt(line)}`);
    },
  });
}

/** The SDK Client, offering elicitation and sampling when the host answers them, with the server's notifications routed. */
function createClient(run: SessionRun, options: OpenSessionOptions): Client {
  const { entry, events } = run;
  const client = new Client(CLIENT_INFO, { capabilities: { ...(options.onElicitation ? ELICITATION_CAPABILITY : {}), ...(options.onSampling ? SAMPLING_CAPABILITY : {}) } });
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => events.onToolsListChanged());
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, ({ params }) => events.onResourceUpdated(params));
  client.setNotificationHandler(LoggingMessageNotificationSchema, ({ params }) => logServerMessage(run, options, params));
  if (options.onElicitation) handleElicitation(client, entry.name, options.onElicitation, options.currentCaller);
  if (options.onSampling) handleSampling(client, entry.name, options.onSampling, options.currentCaller);
  return client;
}

function createModernClientOf(createModernClient: CreateModernClient, run: SessionRun, options: OpenSessionOptions) {
  const { entry, events } = run;
  return createModernClient({
    entry,
    clientInfo: CLIENT_INFO,
    ...(options.onElicitation ? { onElicitation: options.onElicitation } : {}),
    ...(options.onSampling ? { onSampling: options.onSampling } : {}),
    currentCaller: options.currentCaller,
    onToolsListChanged: () => events.onToolsListChanged(),
    onResourceUpdated: (update) => events.onResourceUpdated(update),
    onLogMessage: (params) => logServerMessage(run, options, params),
  });
}

/** A server's log message: to the host's debug log, and to the caller whose call it belongs to. */
function logServerMessage(run: SessionRun, options: OpenSessionOptions, params: { level: string; logger?: string; data: unknown }): void {
  run.logger.debug(`MCP server "${run.entry.name}" [${params.level}]: ${typeof params.data === "string" ? params.data : JSON.stringify(params.data)}`);
  try {
    options.currentCaller()?.log?.(params);
  } catch (error) {
    run.logger.debug(`A caller's log handler failed: ${(error as Error)?.message ?? String(error)}`);
  }
}

/** `initialize`, ended by the first of: success, failure, the session dying, `timeoutMs`, or the abort of the attempt. */
function initialize(run: SessionRun, client: Client, transport: Transport, options: OpenSessionOptions): Promise<SessionFailure | undefined> {
  const { server, entry } = run;
  let connectTimer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  return new Promise<SessionFailure | undefined>((resolve) => {
    connectTimer = setTimeout(() => resolve({ kind: "lost", message: `${server} did not finish connecting within ${options.timeoutMs} ms` }), options.timeoutMs);
    run.failConnect = (failure) => resolve(failure);
    onAbort = () => resolve({ kind: "aborted", code: "EXECUTOR_CLOSED", message: `${server} was closed while connecting` });
    if (options.signal.aborted) onAbort();
    else options.signal.addEventListener("abort", onAbort, { once: true });
    client.connect(transport, { timeout: options.timeoutMs + 1_000 }).then(
      () => resolve(undefined),
      (error: unknown) => {
        const status = run.lastStatus && run.lastStatus.status >= 400 ? run.lastStatus : undefined;
        resolve(classifyError(error, { server: entry.name, ...(status ? { httpStatus: status.status, retryAfterMs: status.retryAfterMs } : {}) }));
      },
    );
  }).finally(() => {
    run.failConnect = undefined;
    clearTimeout(connectTimer);
    options.signal.removeEventListener("abort", onAbort!);
  });
}

/** Close what the failed attempt opened, and say why it failed, with a stdio server's telling stderr lines. */
async function failedConnecting(run: SessionRun, connectFailure: SessionFailure | undefined): Promise<SessionFailure> {
  const { server, built } = run;
  run.alive = false;
  await closeSessionTransport(run);
  const failure: SessionFailure = connectFailure ?? { kind: "lost", message: `${server} closed the connection while connecting` };
  // A stdio server that ended while connecting is reported as one that ends later is: how it
  // ended, with its telling stderr lines (not "closed the connection").
  const ended = built?.stdio?.endReason();
  if (ended && failure.kind === "lost" && !failure.code) return { ...failure, message: `${server} ${ended}` };
  const stderr = built?.stdio?.stderrSummary();
  return stderr && !failure.message.includes(stderr) ? { ...failure, message: `${failure.message}: ${stderr}` } : failure;
}

function sessionOf(run: SessionRun, client: Client, era: ProtocolEra): McpSession {
  return {
    kind: run.kind,
    era,
    client,
    get alive() {
      return run.alive;
    },
    request: (request, schema, requestOptions) => sendSessionRequest(run, client, request, schema, requestOptions),
    fail: (failure) => dieSession(run, failure),
    async close() {
      if (run.alive) {
        run.alive = false;
        run.requests.settleAll({ kind: "aborted", code: "EXECUTOR_CLOSED", message: `${run.server} was closed while the call was under way` });
      }
      await closeSessionTransport(run, true);
    },
  };
}
