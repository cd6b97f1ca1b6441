/**
 * What `toolexec validate` calls broken: a tool the config names that cannot be served (a Python
 * entry naming a function its module lacks or whose schema cannot be derived) and an
 * MCP server that is unavailable (its entry cannot be resolved). A disabled server is not broken,
 * and one that is only not connected yet is a warning: it may be down only for now.
 */
import type { ConfigStatus } from "../index.js";
import type { McpServerInfo } from "../mcp.js";

export interface BrokenPiece {
  kind: "tool" | "server";
  name: string;
  /** Why, as a call of it (or `servers`) says it. */
  message: string;
  /** Where the config writes it, when it says: `tools.json tools[3]`. */
  source?: { file: string; path: string };
}

/** A server whose entry cannot be resolved: broken until the config changes, unlike one that is down. */
export function isUnavailableServer(server: McpServerInfo): boolean {
  return (server.state as string) === "unavailable";
}

/**
 * Every broken piece of a started executor: its unavailable tools, then its unavailable servers.
 *
 * @example
 * const broken = findBrokenPieces(executor.configStatus().unavailableTools, executor.servers());
 */
export function findBrokenPieces(unavailableTools: ConfigStatus["unavailableTools"], servers: readonly McpServerInfo[]): BrokenPiece[] {
  const tools = unavailableTools.map(({ name, error, source }): BrokenPiece => ({ kind: "tool", name, message: error.message, ...(source ? { source } : {}) }));
  const unavailable = servers.filter(isUnavailableServer).map((server): BrokenPiece => ({
    kind: "server",
    name: server.name,
    message: `MCP server "${server.name}" is unavailable: ${server.lastError?.message ?? "no reason given"}`,
  }));
  return [...tools, ...unavailable];
}

/**
 * `2 broken: tool "wrod_count", server "github"; still working: 7 tool(s), 1 server(s)`, then one
 * indented line per piece with its reason.
 */
export function formatBrokenPieces(broken: readonly BrokenPiece[], working: { tools: number; servers: number }): string {
  const names = broken.map((piece) => `${piece.kind} "${piece.name}"`).join(", ");
  const summary = `${broken.length} broken: ${names}; still working: ${working.tools} tool(s), ${working.servers} server(s)`;
  return [summary, ...broken.map((piece) => `  ${piece.message}`)].join("\n");
}
