/** Builds the SDK transport for one server entry: stdio, Streamable HTTP or legacy SSE. */
import { existsSync, statSync } from "node:fs";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { McpServerEntry, RemoteServerEntry, StdioServerEntry } from "../../core/config/resolve-mcp-server.js";
import { ToolexecError } from "../../core/errors/toolexec-error.js";
import { inheritedEnvironment } from "../../core/host-environment.js";
import type { FetchLike } from "./guarded-fetch.js";
import { createObservedFetch, type HttpObserver } from "./observed-fetch.js";

export type ConnectedTransportKind = "stdio" | "http" | "sse";

/** Kept of a stdio server's stderr, for the reason it exited. */
const STDERR_TAIL_BYTES = 2048;
/** Lines of the stdio stream may be this much longer than `maxResponseBytes` (the envelope around a result). */
const STDIO_BUFFER_SLACK_BYTES = 1024 * 1024;
/** The SDK's own stdio buffer cap; ours is never smaller. */
const SDK_STDIO_BUFFER_BYTES = 10 * 1024 * 1024;

export interface BuiltTransport {
  transport: Transport;
  /** The last lines a stdio server wrote to stderr. */
  stderrTail(): string;
}

export interface TransportOptions {
  observer: HttpObserver;
  /** The fetch under the observer: global fetch for trusted servers, the guarded one otherwise. */
  fetch: FetchLike;
}

/** The host variables a stdio server inherits (the same allowlist as scripts), then its own env. */
function serverEnvironment(entry: StdioServerEntry): Record<string, string> {
  return { ...inheritedEnvironment(), ...entry.env };
}

function createStdioTransport(entry: StdioServerEntry): BuiltTransport {
  if (!existsSync(entry.cwd) || !statSync(entry.cwd).isDirectory()) {
    throw new ToolexecError("CONFIG_INVALID", `Server "${entry.name}": its cwd ${entry.cwd} is not a folder`, { details: { cwd: entry.cwd } });
  }
  const transport = new StdioClientTransport({
    command: entry.command,
    args: entry.args,
    env: serverEnvironment(entry),
    cwd: entry.cwd,
    stderr: "pipe",
    maxBufferSize: Math.max(SDK_STDIO_BUFFER_BYTES, entry.maxResponseBytes + STDIO_BUFFER_SLACK_BYTES),
  });
  let tail = "";
  // Reading stderr also keeps a chatty server from blocking on a full pipe.
  transport.stderr?.on("data", (chunk: Buffer) => {
    tail = (tail + chunk.toString("utf8")).slice(-STDERR_TAIL_BYTES);
  });
  return { transport, stderrTail: () => tail.trim() };
}

function createRemoteTransport(entry: RemoteServerEntry, kind: "http" | "sse", options: TransportOptions): BuiltTransport {
  const fetch = createObservedFetch(options.fetch, { transport: kind, maxResponseBytes: entry.maxResponseBytes, observer: options.observer });
  const requestInit: RequestInit = { headers: entry.headers };
  const url = new URL(entry.url);
  const transport =
    kind === "http"
      ? new StreamableHTTPClientTransport(url, { requestInit, fetch })
      : new SSEClientTransport(url, { requestInit, fetch });
  return { transport, stderrTail: () => "" };
}

/**
 * @example
 * const { transport } = createTransport(entry, "http", { observer, fetch: globalThis.fetch });
 * await client.connect(transport);
 */
export function createTransport(entry: McpServerEntry, kind: ConnectedTransportKind, options: TransportOptions): BuiltTransport {
  if (entry.transport === "stdio") return createStdioTransport(entry);
  return createRemoteTransport(entry, kind === "stdio" ? "http" : kind, options);
}
