/**
 * The one rule that gives a registry tool the `server` and `tool` that sandboxed code uses
 * (`tools.<server>.<tool>`, `call_tool(server, tool, args)`, `allowed_servers`): a tool that names
 * its server in its definition (`definition.server`: MCP tools, built-ins such as
 * `request_human_input` on server `human`) is addressed by it; every other tool is one the executor
 * serves itself (tools.json, a host's plugin) on server `local`. Names are never parsed, so a server
 * named with spaces or `__` works like any other.
 *
 * The server names `local` and `human` therefore mean local and built-in tools. An MCP server may
 * still carry one of them (client configs load unchanged); its tools are then reached by their full
 * registry name, `call_tool("local__tool", args)` (see {@link RESERVED_SERVER_NAMES}).
 */
import type { ToolDefinition } from "../../../core/plugin-contract.js";
import { HUMAN_SERVER, LOCAL_SERVER, RESERVED_SERVER_NAMES, TOOL_NAME_SEPARATOR } from "../../../core/tool-names.js";

/** The server of every tool without `__` in its name that is not a built-in (`local`), and of `request_human_input` (`human`). */
export { HUMAN_SERVER, LOCAL_SERVER, RESERVED_SERVER_NAMES };

/** Where a tool lives, as sandboxed code names it. */
export interface ToolAddress {
  server: string;
  tool: string;
}

/**
 * The server and tool that code mode uses for a registry tool.
 *
 * @example
 * toolAddress({ name: "csv_summary" }); // { server: "local", tool: "csv_summary" }
 * toolAddress({ name: "github__create_issue", server: { name: "github", tool: "create_issue" } }); // { server: "github", tool: "create_issue" }
 */
export function toolAddress(definition: Pick<ToolDefinition, "name" | "server">): ToolAddress {
  return definition.server ? { server: definition.server.name, tool: definition.server.tool } : { server: LOCAL_SERVER, tool: definition.name };
}

/**
 * The registry name a tool at `server`.`tool` would have: the tool's own name on `local` and
 * `human`, else an MCP server's `server__tool`. For an address code mode does not list, to ask the
 * executor why (a quarantined tool, a server that is down).
 *
 * @example
 * registryNameAt("docs", "fetch_page"); // "docs__fetch_page"
 * registryNameAt("local", "csv_summary"); // "csv_summary"
 */
export function registryNameAt(server: string, tool: string): string {
  return RESERVED_SERVER_NAMES.includes(server) ? tool : `${server}${TOOL_NAME_SEPARATOR}${tool}`;
}
