/** Builds the SDK transport for one server entry: stdio, Streamable HTTP or legacy SSE. */
import { existsSync, statSync } from "node:fs";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { McpServerEntry, RemoteServerEntry, StdioServerEntry } from "./config/resolve-mcp-server.js";
import { ToolexecError } from "../../core/errors/toolexec-error.js";
import { inheritedEnvironment } from "../../core/host-environment.js";
import type { FetchLike } from "./guarded-fetch.js";
import { createObservedFetch, type HttpObserver } from "./observed-fetch.js";
import { createStdioTransport, type StdioTransport } from "./stdio-transport.js";

export type ConnectedTransportKind = "stdio" | "http" | "sse";

/** The SDK v2 Streamable HTTP transport's constructor (loaded with modern-client.ts). */
export type ModernHttpTransport = typeof import("./modern-client.js").ModernHttpClientTransport;

/** Lines of the stdio stream may be this much longer than `maxResponseBytes` (the envelope around a result). */
const STDIO_BUFFER_SLACK_BYTES = 1024 * 1024;
/** The SDK's own stdio buffer cap; ours is never smaller. */
const SDK_STDIO_BUFFER_BYTES = 10 * 1024 * 1024;

export interface BuiltTransport {
  transport: Transport;
  /** The stdio transport, which knows how its process ended. */
  stdio?: StdioTransport;
}

export interface TransportOptions {
  /** For a 2026-07-28 session: the SDK v2 Streamable HTTP transport (per-request streams, no session), from modern-client.ts. */
  modernHttpTransport?: ModernHttpTransport;
  observer: HttpObserver;
  /** The fetch under the observer: global fetch for trusted servers, the guarded one otherwise. */
  fetch: FetchLike;
  /** OAuth for an http / sse server: the SDK discovers, registers, refreshes and steps up through it (docs/auth.md). */
  authProvider?: OAuthClientProvider;
  /** A stdio server wrote a line that is not JSON-RPC (skipped); `count` so far on this connection. */
  onStrayLine(line: string, count: number): void;
}

/** The host variables a stdio server inherits (the same allowlist as scripts), then its own env. */
function serverEnvironment(entry: StdioServerEntry): Record<string, string> {
  return { ...inheritedEnvironment(), ...entry.env };
}

function createStdio(entry: StdioServerEntry, options: TransportOptions): BuiltTransport {
  if (!existsSync(entry.cwd) || !statSync(entry.cwd).isDirectory()) {
    throw new ToolexecError("CONFIG_INVALID", `Server "${entry.name}": its cwd ${entry.cwd} is not a folder`, { details: { cwd: entry.cwd } });
  }
  const stdio = createStdioTransport({
    command: entry.command,
    args: entry.args,
    env: serverEnvironment(entry),
    cwd: entry.cwd,
    maxLineBytes: Math.max(SDK_STDIO_BUFFER_BYTES, entry.maxResponseBytes + STDIO_BUFFER_SLACK_BYTES),
    onStrayLine: options.onStrayLine,
  });
  return { transport: stdio, stdio };
}

/**
 * A URL with `user:password@` cannot be fetched (fetch refuses it), so the credentials become an
 * `Authorization: Basic` header, as curl and browsers send them; a header given in the entry wins.
 */
export function splitCredentials(url: URL, headers: Record<string, string>): { url: URL; headers: Record<string, string> } {
  if (url.username === "" && url.password === "") return { url, headers };
  const bare = new URL(url.href);
  bare.username = "";
  bare.password = "";
  if (Object.keys(headers).some((name) => name.toLowerCase() === "authorization")) return { url: bare, headers };
  const basic = Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString("base64");
  return { url: bare, headers: { ...headers, Authorization: `Basic ${basic}` } };
}

function createRemoteTransport(entry: RemoteServerEntry, kind: "http" | "sse", options: TransportOptions): BuiltTransport {
  const fetch = createObservedFetch(options.fetch, { transport: kind, maxResponseBytes: entry.maxResponseBytes, observer: options.observer });
  const { url, headers } = splitCredentials(new URL(entry.url), entry.headers);
  const transportOptions = { requestInit: { headers } satisfies RequestInit, fetch, ...(options.authProvider ? { authProvider: options.authProvider } : {}) };
  if (kind === "http" && options.modernHttpTransport) return { transport: new options.modernHttpTransport(url, transportOptions as never) as unknown as Transport };
  const transport = kind === "http" ? new StreamableHTTPClientTransport(url, transportOptions) : new SSEClientTransport(url, transportOptions);
  return { transport };
}

/**
 * @example
 * const { transport } = createTransport(entry, "http", { observer, fetch: globalThis.fetch, onStrayLine });
 * await client.connect(transport);
 */
export function createTransport(entry: McpServerEntry, kind: ConnectedTransportKind, options: TransportOptions): BuiltTransport {
  if (entry.transport === "stdio") return createStdio(entry, options);
  return createRemoteTransport(entry, kind === "stdio" ? "http" : kind, options);
}
