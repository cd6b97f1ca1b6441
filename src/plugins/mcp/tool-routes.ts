/**
 * Which server serves each MCP tool name. Quarantined tools never enter the table: not listed, not
 * routed (docs/tool-trust.md). Only an unprefixed server's names can clash (prefixed ones differ by
 * server name): they are known once both are connected, so the first in mcp.json order keeps the
 * name, and each rebuild warns again while the clash lasts.
 */
import type { Logger } from "../../core/plugin-contract.js";
import type { ServerConnection } from "./server-connection.js";
import type { ServerTool } from "./tool-definitions.js";
import type { ToolTrust } from "./trust/tool-trust.js";
import type { TrustServerView } from "./trust/trust-review.js";

export interface Route {
  connection: ServerConnection;
  tool: ServerTool;
}

/** A route table and the names two servers serve (the first in order keeps each). */
export interface BuiltRoutes {
  table: Map<string, Route>;
  clashes: Array<{ tool: string; servers: [string, string] }>;
}

export interface ToolRoutes {
  /** The routes in force, built when first asked after a change. */
  table(): Map<string, Route>;
  /** Something changed (a tool list, a server, trust): the next `table()` rebuilds. */
  invalidate(): void;
  /** The routes of `connections`' tools, without taking them. */
  build(connections: ServerConnection[]): BuiltRoutes;
  /** Take `built` as the routes in force, warning about the names two servers serve. */
  adopt(built: BuiltRoutes): Map<string, Route>;
}

/** A connection as trust sees it. */
export function trustView(connection: ServerConnection): TrustServerView {
  return { entry: connection.entry, source: connection.source, tools: connection.tools(), connected: connection.info().state === "connected" };
}

export function createToolRoutes(trust: ToolTrust, logger: Logger, connections: () => ServerConnection[]): ToolRoutes {
  let routes: Map<string, Route> | undefined;
  const build = (servers: ServerConnection[]): BuiltRoutes => {
    const table = new Map<string, Route>();
    const clashes: BuiltRoutes["clashes"] = [];
    const admitted = trust.admit(servers.map(trustView));
    for (const [index, connection] of servers.entries()) {
      for (const tool of admitted[index]!) {
        const first = table.get(tool.definition.name);
        if (first) clashes.push({ tool: tool.definition.name, servers: [first.tool.server, tool.server] });
        else table.set(tool.definition.name, { connection, tool });
      }
    }
    return { table, clashes };
  };
  const adopt = (built: BuiltRoutes) => {
    for (const { tool, servers } of built.clashes) {
      logger.warn(`MCP tool name "${tool}" is served by both server "${servers[0]}" and server "${servers[1]}"; keeping server "${servers[0]}"'s (set "prefix": true on one of them)`);
    }
    return (routes = built.table);
  };
  return {
    table: () => routes ?? adopt(build(connections())),
    invalidate: () => (routes = undefined),
    build,
    adopt,
  };
}
