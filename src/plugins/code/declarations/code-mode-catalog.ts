/**
 * The tools sandboxed code may call, with their code-mode addresses, in one stable order: the same
 * list feeds the declarations, the description, `describe_tool` and `search_tools`, and the runtime's
 * dispatch map.
 */
import type { ToolDefinition } from "../../../core/plugin-contract.js";
import { CODE_EXECUTION_TOOL_NAME } from "../../../core/tool-names.js";
import { LOCAL_SERVER, toolAddress, type ToolAddress } from "./tool-address.js";

/** The code-mode tool's own registry name; code cannot call it, so it is never in the catalog. */
export { CODE_EXECUTION_TOOL_NAME };

/** A tool as sandboxed code sees it. */
export interface CodeModeTool extends ToolAddress {
  /** The registry name (what `executor.callTool` takes). */
  name: string;
  definition: ToolDefinition;
}

/**
 * The callable tools, without `code_execution` and the excluded names, sorted by server (`local`
 * first, then alphabetically) and by tool. Sorting keeps the generated text identical when a reload
 * only reorders the registry. A second tool with the same server and tool is dropped: the first wins.
 *
 * @example
 * const catalog = listCodeModeTools(executorTools, ["delete_everything"]);
 * const dispatch = new Map(catalog.map((entry) => [`${entry.server}\u0000${entry.tool}`, entry.name]));
 */
export function listCodeModeTools(tools: readonly ToolDefinition[], exclude: readonly string[] = []): CodeModeTool[] {
  const excluded = namesExcludedFromCode(exclude);
  const seen = new Set<string>();
  const catalog: CodeModeTool[] = [];
  for (const definition of tools) {
    if (excluded.has(definition.name)) continue;
    const address = toolAddress(definition);
    const key = `${address.server}\u0000${address.tool}`;
    if (seen.has(key)) continue;
    seen.add(key);
    catalog.push({ name: definition.name, ...address, definition });
  }
  return catalog.sort(compareTools);
}

/**
 * The registry names code may never call: `code_execution` itself and the `exclude` list.
 *
 * @example
 * namesExcludedFromCode(["drop_table"]).has("code_execution"); // true
 */
export function namesExcludedFromCode(exclude: readonly string[]): Set<string> {
  return new Set([CODE_EXECUTION_TOOL_NAME, ...exclude]);
}

/**
 * The catalog grouped by server, in catalog order.
 *
 * @example
 * for (const [server, entries] of groupByServer(listCodeModeTools(tools))) console.log(server, entries.length);
 */
export function groupByServer(catalog: readonly CodeModeTool[]): Map<string, CodeModeTool[]> {
  const groups = new Map<string, CodeModeTool[]>();
  for (const entry of catalog) {
    const group = groups.get(entry.server);
    if (group) group.push(entry);
    else groups.set(entry.server, [entry]);
  }
  return groups;
}

function compareTools(left: CodeModeTool, right: CodeModeTool): number {
  if (left.server !== right.server) {
    if (left.server === LOCAL_SERVER) return -1;
    if (right.server === LOCAL_SERVER) return 1;
    return compareText(left.server, right.server);
  }
  return compareText(left.tool, right.tool);
}

/** Code-unit order, not locale order: the same on every machine. */
function compareText(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}
