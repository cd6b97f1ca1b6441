/**
 * The one rule that turns a registry name into the `server` and `tool` that sandboxed code uses
 * (`tools.<server>.<tool>`, `call_tool(server, tool, args)`), and back.
 *
 * The rule, applied to the name alone so that the runtime and the declarations always agree:
 * 1. A name containing `__` is an MCP tool: the server is the part before the first `__`, the tool is
 *    the rest (`github__create_issue` → `github`, `create_issue`). tools.json names may not contain
 *    `__`, so this never catches a local tool.
 * 2. A built-in tool belongs to its built-in server (`request_human_input` → `human`).
 * 3. Every other name is a tool the executor serves itself (tools.json, a host's plugin): server
 *    `local` (`csv_summary` → `local`, `csv_summary`).
 *
 * The server names `local` and `human` therefore mean local and built-in tools. An MCP server may
 * still carry one of them (client configs load unchanged); its tools are then reached by their full
 * registry name, `call_tool("local__tool", args)` (see {@link RESERVED_SERVER_NAMES}).
 */
import { HUMAN_SERVER, LOCAL_SERVER, RESERVED_SERVER_NAMES } from "../../../core/config/mcp-server-schema.js";
import { HUMAN_INPUT_TOOL_NAME } from "../../human/human-input-plugin.js";

/** The server of every tool without `__` in its name that is not a built-in (`local`), and of `request_human_input` (`human`). */
export { HUMAN_SERVER, LOCAL_SERVER, RESERVED_SERVER_NAMES };

/** The separator between an MCP server's name and its tool's name in the registry. */
export const SERVER_SEPARATOR = "__";

/** Built-in tools and the server each belongs to; a built-in keeps its registry name as tool name. */
export const BUILT_IN_TOOL_SERVERS: ReadonlyMap<string, string> = new Map([[HUMAN_INPUT_TOOL_NAME, HUMAN_SERVER]]);


/** Where a tool lives, as sandboxed code names it. */
export interface ToolAddress {
  server: string;
  tool: string;
}

/**
 * The server and tool that code mode uses for a registry name.
 *
 * @example
 * toServerAndTool("csv_summary"); // { server: "local", tool: "csv_summary" }
 * toServerAndTool("github__create_issue"); // { server: "github", tool: "create_issue" }
 * toServerAndTool("request_human_input"); // { server: "human", tool: "request_human_input" }
 */
export function toServerAndTool(registryName: string): ToolAddress {
  const builtInServer = BUILT_IN_TOOL_SERVERS.get(registryName);
  if (builtInServer !== undefined) return { server: builtInServer, tool: registryName };
  const separator = registryName.indexOf(SERVER_SEPARATOR);
  // An empty side ("__x", "x__") cannot be an MCP server's tool: such a name stays whole.
  if (separator > 0 && separator + SERVER_SEPARATOR.length < registryName.length) {
    return { server: registryName.slice(0, separator), tool: registryName.slice(separator + SERVER_SEPARATOR.length) };
  }
  return { server: LOCAL_SERVER, tool: registryName };
}

/**
 * The registry name for a server and tool: the inverse of {@link toServerAndTool} for every name
 * the registry can hold. The name may still be absent from the registry; look it up before calling.
 *
 * @example
 * toRegistryName("local", "csv_summary"); // "csv_summary"
 * toRegistryName("github", "create_issue"); // "github__create_issue"
 * toRegistryName("human", "request_human_input"); // "request_human_input"
 */
export function toRegistryName(server: string, tool: string): string {
  if (server === LOCAL_SERVER) return tool;
  if (BUILT_IN_TOOL_SERVERS.get(tool) === server) return tool;
  return `${server}${SERVER_SEPARATOR}${tool}`;
}
