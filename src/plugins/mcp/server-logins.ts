/**
 * Logging in to OAuth servers, for hosts and the CLI: start a login (the URL a person opens), finish
 * it with the code the redirect brought back, log out. Faults are values, as for tool calls.
 */
import type { ToolErrorInfo } from "../../core/plugin-contract.js";
import { isToolexecError } from "../../core/errors/toolexec-error.js";
import { parsePrincipal } from "./auth/principal-token-store.js";
import type { ServerConnection } from "./server-connection.js";
import type { McpServerInfo } from "./server-info.js";

type LoginError = { ok: false; error: ToolErrorInfo };

/** `authorized`: nothing to do (tokens held or refreshed); otherwise send a person to `url`. */
export type StartLoginResult =
  | { ok: true; authorized: true; server: McpServerInfo }
  | { ok: true; authorized: false; url: string; redirectUrl: string }
  | LoginError;

/** `finishServerLogin`'s answer: the server's state once connected, or why the login failed. */
export type FinishLoginResult = { ok: true; server: McpServerInfo } | LoginError;

/** Whose login: absent for the server's shared login; a principal's for a per-user server (docs/identity.md). */
export interface ServerLoginOptions {
  /** An API key's id (`toolexec keys list`), or `jwt:<subject>` for a JWT caller. */
  principal?: string;
}

/** OAuth logins to MCP servers: the executor's `startServerLogin`, `finishServerLogin` and `logoutServer`. See docs/auth.md. */
export interface ServerLogins {
  /**
   * Start logging in to an OAuth server: resolves to the authorization URL a person must open (the
   * redirect comes back to `redirectUrl`, a loopback address), or `authorized: true` when stored
   * tokens (or a silent refresh) suffice. See docs/auth.md.
   */
  startServerLogin(server: string, options?: ServerLoginOptions): Promise<StartLoginResult>;
  /** Finish the login started last with the `code` and `state` of the redirect; the server connects. */
  finishServerLogin(server: string, redirect: { code: string; state?: string }, options?: ServerLoginOptions): Promise<FinishLoginResult>;
  /** Forget a server's tokens and registered client; false when it has none to forget (not an OAuth server). */
  logoutServer(server: string, options?: ServerLoginOptions): Promise<boolean>;
}

const failed = (error: unknown): LoginError => ({
  ok: false,
  error: isToolexecError(error) ? { code: error.code, message: error.message } : { code: "AUTH_REQUIRED", message: (error as Error)?.message ?? String(error) },
});

/**
 * @example
 * const logins = createServerLogins(() => connections);
 * const started = await logins.startServerLogin("docs"); // { ok: true, authorized: false, url, redirectUrl }
 */
export function createServerLogins(connections: () => ServerConnection[]): ServerLogins {
  type Found = { connection: ServerConnection; forget?: () => Promise<void> };
  const find = (server: string, options: ServerLoginOptions | undefined): Found | LoginError => {
    const connection = connections().find((candidate) => candidate.entry.name === server);
    if (!connection) return { ok: false, error: { code: "TOOL_NOT_FOUND", message: `No MCP server named "${server}"`, details: { servers: connections().map((candidate) => candidate.entry.name) } } };
    if (!connection.authorization) {
      return { ok: false, error: { code: "INVALID_INPUT", message: `Server "${server}" does not use OAuth (a stdio server, "oauth": false, or an Authorization header in mcp.json)` } };
    }
    if (options?.principal === undefined) return { connection };
    if (!connection.principals) return { ok: false, error: { code: "INVALID_INPUT", message: `Server "${server}" has one shared login, not one per principal; set "perUser": true in its "oauth" to sign principals in one by one` } };
    try {
      const principal = parsePrincipal(options.principal);
      const { principals } = connection;
      // The principal's own connection: its authorization reads and writes only that principal's record.
      return { connection: principals.connection(principal), forget: () => principals.forget(principal) };
    } catch (error) {
      return failed(error);
    }
  };
  return {
    async startServerLogin(server, options) {
      const found = find(server, options);
      if (!("connection" in found)) return found;
      try {
        const started = await found.connection.authorization!.startLogin();
        if (!started.authorized) return { ok: true, ...started };
        await found.connection.afterLogin();
        return { ok: true, authorized: true, server: found.connection.info() };
      } catch (error) {
        return failed(error);
      }
    },
    async finishServerLogin(server, redirect, options) {
      const found = find(server, options);
      if (!("connection" in found)) return found;
      if (typeof redirect?.code !== "string" || redirect.code === "") return { ok: false, error: { code: "INVALID_INPUT", message: "Expected the redirect's { code, state }, got no code" } };
      try {
        await found.connection.authorization!.finishLogin(redirect.code, redirect.state);
      } catch (error) {
        return failed(error);
      }
      await found.connection.afterLogin();
      return { ok: true, server: found.connection.info() };
    },
    async logoutServer(server, options) {
      const found = find(server, options);
      if (!("connection" in found)) return false;
      await found.connection.authorization!.logout();
      await found.forget?.();
      return true;
    },
  };
}
