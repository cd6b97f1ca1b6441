/**
 * Serve an executor over Streamable HTTP: sessions (`Mcp-Session-Id`) or a stateless mode for
 * replicas behind a load balancer; 127.0.0.1 by default, a bearer token required anywhere else;
 * Host/Origin checks against DNS rebinding, a body limit, and a bounded, graceful close.
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { StreamableHTTPServerTransport, type EventStore } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { ToolexecError, type Executor } from "../index.js";
import type { CallerAccess } from "../plugin.js";
import { createMcpServer, PACKAGE_VERSION, type McpServerOptions, type ServedMcpServer } from "./create-mcp-server.js";
import { expectSecret, expectWholeNumber } from "./check-serve-options.js";
import { checkRequest, isLoopbackHost } from "./http-guard.js";
import { createSessionBytes, DEFAULT_MAX_SESSION_BYTES } from "./session-bytes.js";
import { createSessionEventStore } from "./session-event-store.js";
import { createSessionExpiry, DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_IDLE_MS } from "./session-expiry.js";
import { createAuditFile, DEFAULT_AUDIT_FILE, type RegistryAuditEntry } from "./management-api/audit-log.js";
import { createManagementApi } from "./management-api/management-api.js";
import type { MetricsRegistry } from "./metrics/metrics-registry.js";
import { createOperatorRoutes } from "./operator-routes.js";
import { createWebConsole } from "./console/web-console.js";
import { isListenRequest, isModernRequest } from "./era-2026/request-era.js";
import { resolveRequestStateKey } from "./era-2026/request-state-key.js";
import type { ModernHttp } from "./era-2026/serve-modern-http.js";
import { createServedIdentity, type IdentityOptions } from "./identity/served-identity.js";
import { jsonRpcError, readBody, send } from "./http-messages.js";
import { statelessEvents } from "./lost-call-events.js";

export const DEFAULT_SERVE_HOST = "127.0.0.1";
export const DEFAULT_SERVE_PATH = "/mcp";
/** Largest request body accepted (413 past it). */
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;
/** How long `close()` lets requests under way finish before closing their sessions. */
export const DEFAULT_CLOSE_TIMEOUT_MS = 5_000;
/** The SSE `retry` hint: how long a client whose stream broke waits before resuming it. */
export const SSE_RETRY_MS = 1_000;

export interface HttpServeOptions extends McpServerOptions, IdentityOptions {
  /** Address to bind. Default 127.0.0.1; any other address requires `token`. */
  host?: string;
  /** Port; 0 (the default) picks a free one. */
  port?: number;
  /** Path of the MCP endpoint. Default `/mcp`. */
  path?: string;
  /** Bearer token every request must carry (`Authorization: Bearer …`). */
  token?: string;
  /** No sessions: every request is served on its own (for replicas behind a load balancer). */
  stateless?: boolean;
  maxBodyBytes?: number;
  /** Host names accepted besides loopback ones (without port), e.g. a reverse proxy's. */
  allowedHosts?: string[];
  /** Origins accepted besides loopback ones, e.g. `https://app.example.com`. */
  allowedOrigins?: string[];
  closeTimeoutMs?: number;
  /**
   * Per session, what is kept so a client can resume a broken SSE stream with `Last-Event-ID`
   * (clients of protocol 2025-11-25 or later): at most `maxEvents` events (default 1000) and
   * `maxBytes` of JSON (default 4 MiB), the oldest dropped first. `false` keeps nothing. Not in
   * stateless mode (there is no session to resume).
   */
  resumability?: { maxEvents?: number; maxBytes?: number } | false;
  /** A session with no request open (a call, a notification stream) for this long is closed. Default 30 minutes. */
  sessionIdleMs?: number;
  /**
   * Most sessions served at once (default 1000): a new session past it closes the one idle the
   * longest; when every session has a request open, `initialize` is answered 503.
   */
  maxSessions?: number;
  /**
   * Request bytes one session may have in flight, read and not yet answered (default 16 MiB): a
   * request that would pass it while others of its session are in flight is answered 429.
   */
  maxSessionBytes?: number;
  /**
   * Turns on the registry management API at `/api/tools` (see docs/registry-api.md): every request
   * to it must carry this key as `Authorization: Bearer <key>`. Take it from the environment, never
   * from a request or a file in the project.
   */
  apiKey?: string;
  /**
   * Turns on the web console at `/console` (docs/console.md), behind `token` like the MCP endpoint;
   * `logDir` is the execution log its executions page reads (default: the executor's own,
   * `executor.logDir`). Off by default.
   */
  console?: { logDir?: string };
  /** Where the management API's audit lines go: default appended to `.toolexec/registry-audit.jsonl` in the project. */
  onAudit?(entry: RegistryAuditEntry): void | Promise<void>;
  /** The registry `/metrics` renders (docs/observability.md); without it `/metrics` answers 404. */
  metrics?: MetricsRegistry;
}

export interface HttpServing {
  /** The endpoint, e.g. `http://127.0.0.1:53124/mcp`. */
  url: string;
  /** Stop accepting, let requests under way finish (bounded), close every session. The executor stays open. */
  close(): Promise<void>;
}

interface Session {
  served: ServedMcpServer;
  /** The principal and profile that opened it: no other may use it. */
  owner: string;
  transport: StreamableHTTPServerTransport;
}

/**
 * @example
 * const serving = await serveHttp(executor, { port: 8931 });
 * console.log(serving.url); // http://127.0.0.1:8931/mcp
 */
export async function serveHttp(executor: Executor, options: HttpServeOptions = {}): Promise<HttpServing> {
  expectSecret("token", options.token);
  expectSecret("apiKey", options.apiKey);
  expectWholeNumber("sessionIdleMs", options.sessionIdleMs, 1, " of ms");
  expectWholeNumber("maxSessions", options.maxSessions, 1);
  expectWholeNumber("closeTimeoutMs", options.closeTimeoutMs, 0, " of ms");
  expectWholeNumber("maxBodyBytes", options.maxBodyBytes, 1, " of bytes");
  expectWholeNumber("maxSessionBytes", options.maxSessionBytes, 1, " of bytes");
  expectWholeNumber("maxConcurrentCalls", options.maxConcurrentCalls, 1);
  if (options.resumability) {
    expectWholeNumber("resumability.maxEvents", options.resumability.maxEvents, 1);
    expectWholeNumber("resumability.maxBytes", options.resumability.maxBytes, 1);
  }
  const host = options.host ?? DEFAULT_SERVE_HOST;
  const loopback = isLoopbackHost(host);
  if (!loopback && !options.token) {
    throw new ToolexecError("INVALID_OPTIONS", `Refusing to serve on ${host} without a token: off loopback every request must carry a bearer token (pass token, e.g. from --token-env)`);
  }
  const endpoint = options.path ?? DEFAULT_SERVE_PATH;
  const limit = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const guard = { loopback, allowedHosts: options.allowedHosts ?? [], allowedOrigins: options.allowedOrigins ?? [], token: options.token };
  const management =
    options.apiKey === undefined
      ? undefined
      : createManagementApi(executor, {
          apiKey: options.apiKey,
          guard,
          readBody: (request) => readBody(request, limit),
          audit: options.onAudit ? async (entry) => options.onAudit!(entry) : createAuditFile(path.join(executor.root, DEFAULT_AUDIT_FILE)),
        });
  // Both ask the identity (below) whether a credential is an operator's.
  const authorize = (request: IncomingMessage) => identity.authorizeOperator(request);
  const operator = createOperatorRoutes(executor, { guard, metrics: options.metrics, closing: () => closing, authorize });
  const webConsole = options.console ? createWebConsole(executor, { guard, authorize, logDir: options.console.logDir ?? (executor.logDir || undefined), readBody: (request) => readBody(request, limit) }) : undefined;
  const requestStateKey = resolveRequestStateKey(options.requestStateKey);
  // The 2026 leg (and the SDK v2 packages) load with the first 2026-07-28 request.
  let modern: Promise<ModernHttp> | undefined;
  const modernHttp = () =>
    (modern ??= import("./era-2026/serve-modern-http.js").then(({ createModernHttp }) =>
      createModernHttp(executor, { name: options.name ?? "toolexec", version: options.version ?? PACKAGE_VERSION, key: requestStateKey, maxBodyBytes: limit }),
    ));
  const identity = createServedIdentity(executor, endpoint, options.token, options);
  const sessions = new Map<string, Session>();
  const sessionBytes = createSessionBytes(options.maxSessionBytes ?? DEFAULT_MAX_SESSION_BYTES);
  /** Each request under way's release: a 2026 `subscriptions/listen` stream is released at once, as a GET stream never counts. */
  const release = new WeakMap<ServerResponse, () => void>();
  let underWay = 0;
  let idle: (() => void) | undefined;
  let closing = false;
  const expiry = createSessionExpiry(
    { idleMs: options.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS, maxSessions: options.maxSessions ?? DEFAULT_MAX_SESSIONS },
    (id) => void sessions.get(id)?.served.close(),
  );

  /** `initialize`: the response of the request that opens it (the session's first open request). */
  const openSession = async (stateless: boolean, admitted: { access: CallerAccess; owner: string }, initialize?: ServerResponse, jsonResponse = false, lostCallEvents?: EventStore): Promise<Session> => {
    const served = createMcpServer(executor, { ...options, access: admitted.access });
    const resumable = !stateless && options.resumability !== false;
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: stateless ? undefined : () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, session);
        if (initialize) expiry.track(id, initialize);
      },
      ...(resumable ? { eventStore: createSessionEventStore(options.resumability || {}), retryInterval: SSE_RETRY_MS } : lostCallEvents ? { eventStore: lostCallEvents, retryInterval: SSE_RETRY_MS } : {}),
      ...(jsonResponse ? { enableJsonResponse: true } : {}),
    });
    const session: Session = { served, transport, owner: admitted.owner };
    transport.onclose = () => {
      if (transport.sessionId === undefined) return;
      sessions.delete(transport.sessionId);
      expiry.forget(transport.sessionId);
    };
    await served.server.connect(transport);
    return session;
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? "/", "http://localhost");
    if (management?.handles(url.pathname)) return closing ? send(response, 503, { ok: false, error: { code: "EXECUTOR_CLOSED", message: "The server is shutting down" } }) : management.handle(request, response, url.pathname);
    if (operator.handles(url.pathname)) return operator.handle(request, response, url.pathname);
    if (webConsole?.handles(url.pathname)) return webConsole.handle(request, response, url.pathname);
    if (identity.handles(url.pathname)) return identity.handle(request, response);
    const route = identity.route(url.pathname);
    if (route === undefined) return send(response, 404, { error: `Not found; the MCP endpoint is ${endpoint}` });
    // Host and Origin here; the credential is the identity's to judge.
    const verdict = checkRequest(request, { ...guard, token: undefined });
    if (!verdict.ok) return send(response, verdict.status, { error: verdict.message });
    const admitted = await identity.admit(request, route.profile);
    if (!admitted.ok) return send(response, admitted.status, { error: admitted.message }, admitted.headers);
    if (closing) return send(response, 503, jsonRpcError(-32000, "The server is shutting down"), { connection: "close" });
    let body: unknown;
    if (request.method === "POST") {
      const id = request.headers["mcp-session-id"];
      const read = await readBody(request, limit, typeof id === "string" && sessions.has(id) ? sessionBytes.meter(id, response) : undefined);
      // The MCP SDK's codes: -32000 (server error) for a body too large, -32700 only for a body that is not JSON.
      if (!read.ok) return send(response, read.status, jsonRpcError(read.status === 400 ? -32700 : -32000, read.message), read.status === 429 ? { "retry-after": "1" } : {});
      body = read.value;
    }
    if (await isModernRequest(request, body)) {
      if (isListenRequest(body)) release.get(response)?.();
      return (await modernHttp()).handle(request, response, body, admitted.access);
    }
    if (options.stateless) {
      // A plain JSON answer unless the client asked for progress: a replica that dies before answering
      // then gets the client a load balancer's 502 at once; a stream cut short, a lost-call error (lost-call-events.ts).
      const streams = asksForProgress(body);
      const session = await openSession(true, admitted, undefined, !streams, statelessEvents(request, body, streams));
      response.once("close", () => void session.served.close());
      return session.transport.handleRequest(request, response, body);
    }
    const id = request.headers["mcp-session-id"];
    if (typeof id === "string") {
      const session = sessions.get(id);
      // A session opened by another principal or through another profile is not this client's to use.
      if (!session || session.owner !== admitted.owner) return send(response, 404, jsonRpcError(-32001, "Session not found: it ended or belongs to another server; initialize a new one"));
      expiry.track(id, response);
      return session.transport.handleRequest(request, response, body);
    }
    if (request.method !== "POST" || !isInitializeRequest(body)) {
      return send(response, 400, jsonRpcError(-32000, "No Mcp-Session-Id header: send initialize first"));
    }
    if (!expiry.makeRoom()) return send(response, 503, jsonRpcError(-32000, `Too many sessions: all ${options.maxSessions ?? DEFAULT_MAX_SESSIONS} have a request open; retry later`), { "retry-after": "1" });
    const session = await openSession(false, admitted, response);
    return session.transport.handleRequest(request, response, body);
  };

  const server = createServer((request, response) => {
    // POSTs carry the calls (and management writes); a GET is a session's notification stream, which stays open.
    if (request.method !== "GET") {
      underWay++;
      let counted = true;
      const done = () => {
        if (!counted) return;
        counted = false;
        if (--underWay === 0) idle?.();
      };
      release.set(response, done);
      response.once("close", done);
    }
    handle(request, response).catch((error: unknown) => send(response, 500, jsonRpcError(-32603, `Internal error: ${(error as Error)?.message ?? String(error)}`)));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  }).catch((error: unknown) => {
    expiry.stop();
    throw error;
  });
  const { port } = server.address() as AddressInfo;
  const shownHost = host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;

  return {
    url: `http://${shownHost}:${port}${endpoint}`,
    async close() {
      if (closing) return;
      closing = true;
      expiry.stop();
      identity.close();
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      // Calls under way get a bounded grace; notification streams end with their sessions.
      if (underWay > 0) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, options.closeTimeoutMs ?? DEFAULT_CLOSE_TIMEOUT_MS);
          idle = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
      await (await modern)?.close();
      await Promise.allSettled([...sessions.values()].map((session) => session.served.close()));
      sessions.clear();
      server.closeAllConnections();
      await stopped;
    },
  };
}

/** Whether a POST body (a request or a batch) carries a progress token, so its answer must stream. */
function asksForProgress(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return messages.some((message) => (message as { params?: { _meta?: { progressToken?: unknown } } } | null)?.params?._meta?.progressToken !== undefined);
}
