/**
 * What a caller with access (a served principal through a profile) is shown of search results and
 * tool descriptions: only the tools its view has, under the names it sees them by.
 */
import type { CallerAccess } from "../../core/caller-info.js";
import type { ToolDefinition } from "../../core/plugin-contract.js";

/**
 * The caller's view of `tools`, each with the registry name it stands for: every tool it may reach
 * (a search-first profile lists fewer, and search is how the rest are found), each described for
 * the caller (code_execution's declarations name only its tools).
 */
export function viewedTools(tools: readonly ToolDefinition[], access: CallerAccess | undefined): Array<ToolDefinition & { registryName: string }> {
  if (access === undefined) return tools.map((tool) => ({ ...tool, registryName: tool.name }));
  const named = tools.map((tool) => ({ ...tool, ...(tool.describeFor === undefined ? {} : { description: tool.describeFor(access) }), registryName: tool.name }));
  return access.view(named, { searchFirst: false });
}

/**
 * Results ranked over the whole registry, as the caller may see them: the others left out, renamed tools under their shown names.
 *
 * @example
 * viewedResults(await api.searchTools(query), context.listTools(), callOptions.caller?.access);
 */
export function viewedResults<Result extends { name: string }>(results: Result[], tools: readonly ToolDefinition[], access: CallerAccess | undefined): Result[] {
  if (access === undefined) return results;
  const shown = new Map(viewedTools(tools, access).map((tool) => [tool.registryName, tool.name]));
  return results.filter((result) => shown.has(result.name)).map((result) => (shown.get(result.name) === result.name ? result : { ...result, name: shown.get(result.name)! }));
}
