/**
 * The `toolSearch` key of tools.json and the `toolSearch` option of `createExecutor`: whether models
 * are offered `search_tools`, the search-first listing and its pinned tools, and how much the
 * semantic stage counts. Each key the option sets overrides the file's; the embedding function is an
 * option only (code cannot be written in JSON).
 */
import { withLazySchema } from "../../../core/config/lazy-section-schema.js";
import { arrayOf, isBoolean, isNonEmptyString, numberBetween, objectOf, type Check } from "../../../core/config/well-formed-checks.js";
import type { ToolsKeySection } from "../../../core/plugin-config.js";
import { CODE_EXECUTION_TOOL_NAME, HUMAN_INPUT_TOOL_NAME, WEB_SEARCH_TOOL_NAME } from "../../../core/tool-names.js";
import { DEFAULT_MODEL_WEIGHT, DEFAULT_SEMANTIC_WEIGHT } from "./default-weights.js";
import type { ToolSearchConfig } from "./tool-search-config-schema.js";

export type { ToolSearchConfig };

/** Tools listed beside `search_tools` and `call_tool` under the search-first listing, when registered. */
export const DEFAULT_PINNED_TOOLS: readonly string[] = [HUMAN_INPUT_TOOL_NAME, CODE_EXECUTION_TOOL_NAME, WEB_SEARCH_TOOL_NAME];


/** One check per key of `toolSearchConfigSchema`, each no looser than zod's: a fast vouch (false: ask zod). */
export const TOOL_SEARCH_CHECKS: ReadonlyMap<string, Check> = new Map<string, Check>([
  ["offerTool", isBoolean],
  ["searchFirst", isBoolean],
  ["pinnedTools", arrayOf(isNonEmptyString)],
  ["semanticWeight", numberBetween(0, 1)],
  ["model", isNonEmptyString],
]);

/** Tool search's settings with defaults applied. Plain JSON: the executor compares it to decide on a restart. */
export interface ResolvedToolSearchSettings {
  offerTool: boolean;
  searchFirst: boolean;
  pinnedTools: string[];
  semanticWeight: number;
  /** The model folder as written (relative to the project), or null for none. */
  model: string | null;
}

/**
 * The file's `toolSearch` with the option's keys over it, defaults applied.
 *
 * @example
 * resolveToolSearchSettings({ offerTool: true }, { semanticWeight: 0.4 });
 * // { offerTool: true, searchFirst: false, pinnedTools: [...DEFAULT_PINNED_TOOLS], semanticWeight: 0.4, model: null }
 */
export function resolveToolSearchSettings(fromConfig: ToolSearchConfig | undefined, fromOptions: ToolSearchConfig | undefined): ResolvedToolSearchSettings {
  const merged: ToolSearchConfig = { ...fromConfig };
  for (const [key, value] of Object.entries(fromOptions ?? {})) {
    if (value !== undefined && TOOL_SEARCH_CHECKS.has(key)) (merged as Record<string, unknown>)[key] = value;
  }
  return {
    offerTool: merged.offerTool ?? false,
    searchFirst: merged.searchFirst ?? false,
    pinnedTools: [...(merged.pinnedTools ?? DEFAULT_PINNED_TOOLS)],
    semanticWeight: merged.semanticWeight ?? (merged.model === undefined ? DEFAULT_SEMANTIC_WEIGHT : DEFAULT_MODEL_WEIGHT),
    model: merged.model ?? null,
  };
}

/** The section the search plugin declares: tools.json's `toolSearch`, under the host's option. */
export function toolSearchConfigSection(fromOptions: ToolSearchConfig | undefined): ToolsKeySection<ToolSearchConfig, ResolvedToolSearchSettings> {
  const lazy = { isWellFormed: objectOf(TOOL_SEARCH_CHECKS), load: async () => (await import("./tool-search-config-schema.js")).toolSearchConfigSchema };
  return withLazySchema<ToolsKeySection<ToolSearchConfig, ResolvedToolSearchSettings>>({ key: "toolSearch", resolve: (written) => resolveToolSearchSettings(written, fromOptions) }, lazy);
}
