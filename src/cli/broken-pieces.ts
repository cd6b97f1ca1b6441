/**
 * What `toolexec validate` calls broken: a tool the config names that cannot be served (a Python
 * entry naming a function its module lacks or whose schema cannot be derived), a `pythonModules`
 * file that fails to import (its tools are unknown, so the module is the piece) and an
 * MCP server that is unavailable (its entry cannot be resolved). A disabled server is not broken,
 * and one that is only not connected yet is a warning: it may be down only for now.
 */
import type { ConfigStatus } from "../index.js";
import type { McpServerInfo } from "../mcp.js";

export interface BrokenPiece {
  kind: "tool" | "module" | "server";
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
 * Every broken piece of a started executor: its unavailable tools and modules, then its unavailable servers.
 *
 * @example
 * const broken = findBrokenPieces(executor.configStatus().unavailableTools, executor.servers());
 */
export function findBrokenPieces(unavailableTools: ConfigStatus["unavailableTools"], servers: readonly McpServerInfo[]): BrokenPiece[] {
  const tools = unavailableTools.map(({ name, kind, error, source }): BrokenPiece => ({ kind: kind ?? "tool", name, message: error.message, ...(source ? { source } : {}) }));
  const unavailable = servers.filter(isUnavailableServer).map((server): BrokenPiece => ({
    kind: "server",
    name: server.name,
    // lastError says `Server "github" is unavailable: needs GITHUB_TOKEN, …`: the reason is named once.
    message: `MCP server "${server.name}" is unavailable: ${server.lastError?.message.replace(`Server "${server.name}" is unavailable: `, "") ?? "no reason given"}`,
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

/**
 * Whether `warning` is what the executor logged when it left out one of `broken` (`Python tool "x"
 * left out: why` beside `Python tool "x" is unavailable: why`): `validate` names that piece once.
 */
export function isBrokenPieceWarning(warning: string, broken: readonly BrokenPiece[]): boolean {
  return broken.some((piece) => {
    const at = piece.message.indexOf(" is unavailable: ");
    return at !== -1 && warning === `${piece.message.slice(0, at)} left out: ${piece.message.slice(at + " is unavailable: ".length)}`;
  });
}
