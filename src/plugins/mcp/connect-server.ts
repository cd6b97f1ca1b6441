/**
 * One connection attempt to a server: open a session over its transport (for a bare `url`,
 * Streamable HTTP first and legacy SSE when the server refuses it), then list its tools.
 */
import { ListToolsResultSchema, type Tool } from "@modelcontextprotocol/sdk/types.js";
import type { McpServerEntry } from "./config/resolve-mcp-server.js";
import type { Logger } from "../../core/plugin-contract.js";
import type { ConnectedTransportKind } from "./create-transport.js";
import { openSession, type McpSession, type OpenSessionOptions } from "./mcp-session.js";
import type { SessionFailure } from "./session-failure.js";
import { toServerTools, type ServerTool } from "./tool-definitions.js";

/** `listed`: the server's own listing, as the tool-list cache keeps it. */
export type ConnectOutcome = { ok: true; session: McpSession; tools: ServerTool[]; listed: Tool[] } | { ok: false; failure: SessionFailure };

/** A server that refuses Streamable HTTP's POST with one of these may speak legacy SSE. */
const LEGACY_SSE_HINTS = new Set([400, 404, 405]);

/** The transports to try, in order: the configured one, or for `auto` the one found before. */
function transportsToTry(entry: McpServerEntry, detected: ConnectedTransportKind | undefined): ConnectedTransportKind[] {
  if (entry.transport === "stdio") return ["stdio"];
  if (entry.transport !== "auto") return [entry.transport];
  return detected ? [detected] : ["http", "sse"];
}

/** A failed attempt in a person's words: HTTP 4xx to `initialize` will not fix itself by waiting. */
function connectFailure(entry: McpServerEntry, failure: SessionFailure): SessionFailure {
  const status = failure.details?.httpStatus;
  if (failure.kind === "permanent") return failure;
  if (typeof status === "number" && status >= 400 && status < 500 && status !== 408 && status !== 429) {
    const hint = entry.transport === "http" ? ' (for a legacy SSE server set "type": "sse")' : "";
    return { ...failure, kind: "permanent", message: `Server "${entry.name}" answered HTTP ${status} to initialize; check its url${hint}` };
  }
  return failure;
}

/** A server's listing as executor tools, named and bounded as its entry says. */
export function toEntryTools(entry: McpServerEntry, listed: Tool[], logger: Logger): ServerTool[] {
  const timeout = entry.timeoutMs === undefined ? {} : { timeoutMs: entry.timeoutMs };
  return toServerTools(entry.name, listed, { ...timeout, ...(entry.results === undefined ? {} : { results: entry.results }), prefix: entry.prefix, taken: new Set(), warn: (message) => logger.warn(message) });
}

/** Every page of a session's tools, as executor tools (and as listed). */
export async function listServerTools(session: McpSession, entry: McpServerEntry, logger: Logger, timeoutMs: number): Promise<{ ok: true; tools: ServerTool[]; listed: Tool[] } | { ok: false; failure: SessionFailure }> {
  if (!session.client.getServerCapabilities()?.tools) return { ok: true, tools: [], listed: [] };
  const listed: Tool[] = [];
  let cursor: string | undefined;
  do {
    const page = await session.request({ method: "tools/list", ...(cursor === undefined ? {} : { params: { cursor } }) }, ListToolsResultSchema, { timeoutMs });
    if (!page.ok) return page;
    listed.push(...page.value.tools);
    cursor = page.value.nextCursor;
  } while (cursor !== undefined);
  return { ok: true, tools: toEntryTools(entry, listed, logger), listed };
}

/**
 * @example
 * const connected = await connectServer(options, undefined, (kind) => (detected = kind));
 * if (connected.ok) useSession(connected.session, connected.tools);
 */
export async function connectServer(
  options: Omit<OpenSessionOptions, "kind">,
  detected: ConnectedTransportKind | undefined,
  onDetected: (kind: ConnectedTransportKind) => void,
): Promise<ConnectOutcome> {
  const { entry } = options;
  const kinds = transportsToTry(entry, detected);
  let failure: SessionFailure = { kind: "lost", message: `Server "${entry.name}" could not be reached` };
  for (const [index, kind] of kinds.entries()) {
    const opened = await openSession({ ...options, kind });
    if (opened.ok) {
      if (entry.transport === "auto") onDetected(kind);
      const listed = await listServerTools(opened.session, entry, options.logger, options.timeoutMs);
      if (listed.ok && opened.session.alive) return { ok: true, session: opened.session, tools: listed.tools, listed: listed.listed };
      await opened.session.close();
      return { ok: false, failure: listed.ok ? { kind: "lost", message: `Server "${entry.name}" closed the connection after initializing` } : listed.failure };
    }
    failure = opened.failure;
    const status = failure.details?.httpStatus;
    if (!(index < kinds.length - 1 && typeof status === "number" && LEGACY_SSE_HINTS.has(status))) break;
  }
  return { ok: false, failure: connectFailure(entry, failure) };
}
