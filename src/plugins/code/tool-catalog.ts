/**
 * The tools sandboxed code can reach, indexed for dispatch: by server and tool, and by registry
 * name. Lookups go through Maps only, never `object[server][tool]`, so no name the sandbox sends
 * ("__proto__", "constructor") can reach anything but a tool.
 */
import type { ToolDefinition } from "../../core/plugin-contract.js";
import { listCodeModeTools, namesExcludedFromCode, type CodeModeTool } from "./declarations/index.js";

export interface ToolCatalog {
  /** Bumped on every change; a runtime gets the catalog again when its version differs. */
  version: number;
  /** The callable tools (excluded ones left out), in catalog order: also what describe_tool and search_tools read. */
  entries: readonly CodeModeTool[];
  byAddress: ReadonlyMap<string, ReadonlyMap<string, CodeModeTool>>;
  byName: ReadonlyMap<string, CodeModeTool>;
  /** `[server, tool]` of every entry, for the runtime's `tools` namespace. */
  pairs: Array<[string, string]>;
  /** Registry names code may never call, listed or not: `code_execution` and code mode's `excludeTools`. */
  excluded: ReadonlySet<string>;
  /**
   * A served caller's catalog (caller-catalogs.ts): the registry's tools its view hides. Never
   * listed, searched or suggested; a call naming one still goes to the executor, which refuses it
   * (FORBIDDEN, or no such tool) and logs the refusal, as for any other door.
   */
  hidden?: ToolIndex;
}

/** Tools by server and tool, and by registry name. */
export interface ToolIndex {
  byAddress: ReadonlyMap<string, ReadonlyMap<string, CodeModeTool>>;
  byName: ReadonlyMap<string, CodeModeTool>;
}

/**
 * @example
 * indexTools(listCodeModeTools(tools)).byName.get("csv_summary");
 */
export function indexTools(entries: readonly CodeModeTool[]): { byAddress: Map<string, Map<string, CodeModeTool>>; byName: Map<string, CodeModeTool> } {
  const byAddress = new Map<string, Map<string, CodeModeTool>>();
  const byName = new Map<string, CodeModeTool>();
  for (const entry of entries) {
    let server = byAddress.get(entry.server);
    if (!server) byAddress.set(entry.server, (server = new Map()));
    server.set(entry.tool, entry);
    byName.set(entry.name, entry);
  }
  return { byAddress, byName };
}

/**
 * @example
 * const catalog = buildToolCatalog(context.listTools(), ["drop_table"], 1);
 * catalog.byAddress.get("local")?.get("csv_summary")?.name; // "csv_summary"
 */
export function buildToolCatalog(tools: readonly ToolDefinition[], exclude: readonly string[], version: number): ToolCatalog {
  const entries = listCodeModeTools(tools, exclude);
  const { byAddress, byName } = indexTools(entries);
  return {
    version,
    entries,
    byAddress,
    byName,
    pairs: entries.map((entry): [string, string] => [entry.server, entry.tool]),
    excluded: namesExcludedFromCode(exclude),
  };
}
