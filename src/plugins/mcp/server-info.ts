/** What hosts can see of MCP servers: their state, resources, and the events about them. */
import type { ErrorCode } from "../../core/errors/error-codes.js";
import type { PythonEnvironmentEvent } from "../../core/python-environments/environment-events.js";

/**
 * - `connecting`: the first attempt (or a reconnection a call is waiting for) is under way;
 * - `connected`: initialized, tools listed;
 * - `retrying`: not reachable now; the next attempt is at `nextAttemptAt` (calls also try at once);
 * - `failed`: will not work until its entry or environment changes (command not found, credentials or
 *   address refused); calls fail at once, and it is quietly re-checked every `retry.maxDelayMs`;
 * - `needs-login`: an OAuth server with no usable token: a person must log in (`toolexec auth login
 *   <server>`, or the host's `onAuthorization`); no background attempts until then;
 * - `installing`: the first start of a package runner's server (`npx -y`, `uvx`, `pipx run`, `bunx`),
 *   which may download the package first: it has `installTimeoutMs` rather than the usual budget;
 * - `stopped`: a lazy server not started yet in this process; its tools are the list its last run
 *   cached; the first call that needs it starts it;
 * - `idle`: stopped after `idleTimeoutMs` without use; its tools stay listed; the next call starts it;
 * - `unavailable`: its entry cannot be resolved in this environment (an unset `${VAR}`, a bad URL);
 *   never started, `lastError` says why; the other servers are not affected;
 * - `disabled`: `"enabled": false` (or Cline's `"disabled": true`) in mcp.json.
 */
export type McpServerState = "connecting" | "installing" | "connected" | "stopped" | "idle" | "retrying" | "failed" | "needs-login" | "unavailable" | "disabled";

/** One server as `executor.servers()` lists it. */
export interface McpServerInfo {
  /** The name its tools are served under (`name__tool`). */
  name: string;
  /** The mcp.json key, when it is not a valid server name and `name` was derived from it ("Brave Search" → "brave_search"). */
  configKey?: string;
  /** `config`: from mcp.json; `runtime`: added with `executor.addServer`. */
  source: "config" | "runtime";
  /** As configured; `auto` means a `url` without a type (Streamable HTTP, else legacy SSE). */
  transport: "stdio" | "http" | "sse" | "auto";
  /** The transport of the live (or last) session. */
  connectedTransport?: "stdio" | "http" | "sse";
  state: McpServerState;
  /** Present when mcp.json says `"prefix": false`: its tools keep their own names. */
  prefix?: false;
  /** Its tools as the executor names them (`server__tool`, or `tool` without the prefix). */
  tools: string[];
  /** Failed connection attempts in a row. */
  attempts: number;
  /** Epoch ms of the current session's start. */
  connectedAt?: number;
  /** Epoch ms of the next background attempt, while `retrying`. */
  nextAttemptAt?: number;
  /** Why it is not connected (or why it last dropped). */
  lastError?: { code: ErrorCode; message: string };
  /** OAuth servers: `authorized` (tokens held), `needs-login`, or `unknown` (the server has not asked yet). */
  authorization?: "authorized" | "needs-login" | "unknown";
  /** Each served principal signs in on its own (`"oauth": { "perUser": true }`); `authorization` and `state` are then those of the shared login, which only lists tools unless `"anonymous": "shared"`. */
  perUser?: true;
  /** The server's own name and version, from `initialize`. */
  serverInfo?: { name: string; version: string };
}

/** A resource one server offers. */
export interface McpResourceInfo {
  server: string;
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

/** A family of resources one server offers, addressed by an RFC 6570 URI template (`test://items/{id}`). */
export interface McpResourceTemplateInfo {
  server: string;
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

/** The content of a resource, as the server sent it (text, or base64 `blob`). */
export interface McpResourceContent {
  uri: string;
  mimeType?: string;
  text?: string;
  blob?: string;
}

/** The payloads of the executor events the MCP plugin emits. */
export interface McpServerEvents {
  /** A server was initialized (also after a reconnection: `reconnected`). */
  "server:connected": { server: string; transport: "stdio" | "http" | "sse"; tools: string[]; reconnected: boolean };
  /** A server became unusable: a first connection failed, or a live connection dropped. */
  "server:disconnected": { server: string; reason: string; code: ErrorCode; willRetry: boolean; nextAttemptAt?: number };
  /** A server's entry cannot be resolved in this environment (an unset variable, a bad URL): it is not started. */
  "server:unavailable": { server: string; reason: string };
  /** A package runner's server starts for the first time and may be downloading (`budgetMs`: how long it may take). */
  "server:installing": { server: string; command: string; budgetMs: number };
  /** A server that was not running (`stopped`, lazy; or `idle`) starts because a call needs it. */
  "server:starting": { server: string; reason: "call" };
  /** A server was stopped: `idle`, after `idleMs` without use (it starts again on the next call). */
  "server:stopped": { server: string; reason: "idle"; idleMs: number };
  /** A background reconnection attempt is scheduled. */
  "server:retrying": { server: string; attempt: number; nextAttemptAt: number; reason: string };
  /** The environment of a Python server file (mcp.json `python`) is awaited, built or could not be. */
  "python:environment": PythonEnvironmentEvent;
}

declare module "../../core/plugin-events.js" {
  interface PluginEvents extends McpServerEvents {}
}
