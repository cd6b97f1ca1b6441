/**
 * A per-user server's connections, one per served principal: each signs in with that principal's
 * own tokens only (a token store keyed by the principal), so a call from Alice can only ever travel
 * on a session opened with Alice's token. One connection per principal, not one Authorization per
 * request, because an MCP session belongs to the connection that opened it: sharing one session
 * among principals would let one principal's session state (subscriptions, the server's own
 * requests) reach another. Connections are made on first use, closed after an idle time, and capped:
 * a new principal past the cap closes the longest-idle one.
 */
import { ToolexecError } from "../../core/errors/toolexec-error.js";
import type { CallerInfo } from "../../core/plugin-contract.js";
import { cliInvocation } from "../../core/cli-invocation.js";
import { principalLabel, principalTokenStore, type PrincipalReference } from "./auth/principal-token-store.js";
import type { ConnectionContext, ServerConnection } from "./server-connection.js";

/** A principal's connection closes after this long without calls. */
export const PRINCIPAL_IDLE_CLOSE_MS = 5 * 60_000;
/** At most this many principals hold a connection to one server at once. */
export const MAX_PRINCIPAL_CONNECTIONS = 256;

export type PrincipalLease = { ok: true; connection: ServerConnection; release(): void } | { ok: false; error: ToolexecError };

export interface PrincipalConnections {
  /**
   * The connection of the caller's principal, held until `release`; `AUTH_REQUIRED` with the login
   * command when the principal has no stored login (nothing is sent upstream), or when the call
   * has no principal and the server does not send such calls with its shared login.
   */
  lease(principal: PrincipalReference): Promise<PrincipalLease>;
  /** The principal's connection, made if needed (a login under way uses its authorization). */
  connection(principal: PrincipalReference): ServerConnection;
  /** Close the principal's connection (it logged out: its session must not outlive its tokens). */
  forget(principal: PrincipalReference): Promise<void>;
  /** How many principals hold a connection now. */
  size(): number;
  /** Every token and secret the principals' connections hold, for redaction. */
  secrets(): string[];
  close(): Promise<void>;
}

export interface PrincipalConnectionsOptions {
  server: string;
  /** A connection of the server that reads and writes only `store`'s records. */
  create(context: Pick<ConnectionContext, "oauth" | "emit">): ServerConnection;
  store: ConnectionContext["oauth"]["store"];
  /** A principal's connection listed tools (the server's own list may lack them: no shared login). */
  onTools(tools: ServerConnection): void;
  idleCloseMs?: number;
  maxConnections?: number;
}

/**
 * The principal a call runs as on a per-user server: undefined for a call without one (the host's
 * own) and for served callers that proved nothing (`local`: loopback without any credential).
 */
export function callerPrincipal(caller: CallerInfo | undefined): PrincipalReference | undefined {
  const principal = caller?.access?.principal;
  if (principal === undefined || principal.kind === "local") return undefined;
  return { kind: principal.kind, id: principal.id };
}

/** The command that signs `principal` in to `server`, as hints name it. */
export function principalLoginCommand(server: string, principal: PrincipalReference): string {
  const as = principal.kind === "key" ? principal.id : principalLabel(principal);
  return `${cliInvocation()} auth login ${server} --as ${as}`;
}

/** `AUTH_REQUIRED` for a principal that must log in, with the command in the message and `details.login`. */
export function principalLoginRequired(server: string, principal: PrincipalReference, why: string): ToolexecError {
  const login = principalLoginCommand(server, principal);
  return new ToolexecError("AUTH_REQUIRED", `Server "${server}" signs in each caller on its own and ${why} for ${principalLabel(principal)}; run \`${login}\``, { details: { server, principal: principalLabel(principal), login } });
}

interface Held {
  connection: ServerConnection;
  inFlight: number;
  lastUsed: number;
  idleTimer?: NodeJS.Timeout;
}

/**
 * @example
 * const principals = createPrincipalConnections({ server: "github", store, create: (context) => createServerConnection(entry, { ...base, ...context }), onTools });
 * const lease = await principals.lease({ kind: "key", id: "9f86d081884c7d65" });
 */
export function createPrincipalConnections(options: PrincipalConnectionsOptions): PrincipalConnections {
  const { server } = options;
  const idleCloseMs = options.idleCloseMs ?? PRINCIPAL_IDLE_CLOSE_MS;
  const maxConnections = options.maxConnections ?? MAX_PRINCIPAL_CONNECTIONS;
  const held = new Map<string, Held>();
  let closed = false;

  const drop = (label: string): Promise<void> => {
    const entry = held.get(label);
    if (!entry) return Promise.resolve();
    held.delete(label);
    clearTimeout(entry.idleTimer);
    return entry.connection.close();
  };
  /** Room for one more: the longest-idle connection without calls under way gives way. */
  const makeRoom = () => {
    if (held.size < maxConnections) return true;
    const idle = [...held.entries()].filter(([, entry]) => entry.inFlight === 0).sort(([, a], [, b]) => a.lastUsed - b.lastUsed);
    if (idle.length === 0) return false;
    void drop(idle[0]![0]);
    return true;
  };
  const connection = (principal: PrincipalReference): ServerConnection => {
    const label = principalLabel(principal);
    const existing = held.get(label);
    if (existing) return existing.connection;
    const made = options.create({
      // Never the host's onAuthorization: a served principal's login is not the host's person's to make.
      oauth: { store: principalTokenStore(options.store, principal) },
      // The server's events and state are its shared connection's; a principal's come and go quietly.
      emit: () => undefined,
    });
    made.onToolsChanged(() => options.onTools(made));
    held.set(label, { connection: made, inFlight: 0, lastUsed: Date.now() });
    return made;
  };

  return {
    async lease(principal) {
      if (closed) return { ok: false, error: new ToolexecError("EXECUTOR_CLOSED", `Server "${server}" was closed`) };
      const label = principalLabel(principal);
      if (!held.has(label) && !makeRoom()) {
        return { ok: false, error: new ToolexecError("SERVICE_UNAVAILABLE", `Server "${server}": ${maxConnections} principals have calls under way; try again shortly`, { details: { server } }) };
      }
      const chosen = connection(principal);
      const entry = held.get(label)!;
      // A principal that never logged in is answered here, without a request (and without a client registration) upstream.
      if (!chosen.liveSession() && !(await chosen.authorization!.hasStoredLogin())) {
        return { ok: false, error: principalLoginRequired(server, principal, "has no login") };
      }
      entry.inFlight++;
      entry.lastUsed = Date.now();
      clearTimeout(entry.idleTimer);
      let released = false;
      return {
        ok: true,
        connection: chosen,
        release() {
          if (released) return;
          released = true;
          entry.lastUsed = Date.now();
          if (--entry.inFlight > 0 || closed) return;
          entry.idleTimer = setTimeout(() => held.get(label) === entry && entry.inFlight === 0 && void drop(label), idleCloseMs);
          entry.idleTimer.unref();
        },
      };
    },
    connection,
    forget: (principal) => drop(principalLabel(principal)),
    size: () => held.size,
    secrets: () => [...held.values()].flatMap((entry) => entry.connection.authorization?.secrets() ?? []),
    async close() {
      closed = true;
      const all = [...held.values()];
      held.clear();
      for (const entry of all) clearTimeout(entry.idleTimer);
      await Promise.all(all.map((entry) => entry.connection.close()));
    },
  };
}

/** The connection a call travels on, and who it runs as (absent: the server's shared login). */
export type CallerLease = { ok: true; connection: ServerConnection; principal?: PrincipalReference; release(): void } | { ok: false; error: ToolexecError };

/**
 * The caller's connection to `server`: the server's own for a shared server, its principal's for a
 * per-user one; a call without a principal gets the shared login only when the entry says
 * `"anonymous": "shared"`.
 *
 * @example
 * const lease = await connectionForCaller(route.connection, options.caller);
 * if (lease.ok) try { … lease.connection … } finally { lease.release(); }
 */
export async function connectionForCaller(server: ServerConnection, caller: CallerInfo | undefined): Promise<CallerLease> {
  const { principals, entry } = server;
  if (!principals) return { ok: true, connection: server, release: () => undefined };
  const principal = callerPrincipal(caller);
  if (principal === undefined) {
    if (entry.transport !== "stdio" && entry.oauth !== false && entry.oauth.anonymous === "shared") return { ok: true, connection: server, release: () => undefined };
    const message = `Server "${entry.name}" signs in each caller on its own, and this call has no principal (it did not come through \`toolexec serve\` with an API key or a token); call it as a principal, or set "anonymous": "shared" in its "oauth" to send such calls with the shared login`;
    return { ok: false, error: new ToolexecError("AUTH_REQUIRED", message, { details: { server: entry.name } }) };
  }
  const lease = await principals.lease(principal);
  return lease.ok ? { ...lease, principal } : lease;
}
