/**
 * The `toolSearch` key of tools.json and the `toolSearch` option of `createExecutor`: whether models
 * are offered `search_tools`, the search-first listing and its pinned tools, and how much the
 * semantic stage counts. Each key the option sets overrides the file's; the embedding function is an
 * option only (code cannot be written in JSON).
 */
import { z } from "zod";
import type { ToolsKeySection } from "../../../core/plugin-config.js";
import { CODE_EXECUTION_TOOL_NAME, HUMAN_INPUT_TOOL_NAME, WEB_SEARCH_TOOL_NAME } from "../../../core/tool-names.js";
import { DEFAULT_MODEL_WEIGHT, DEFAULT_SEMANTIC_WEIGHT } from "./default-weights.js";

/** Tools listed beside `search_tools` and `call_tool` under the search-first listing, when registered. */
export const DEFAULT_PINNED_TOOLS: readonly string[] = [HUMAN_INPUT_TOOL_NAME, CODE_EXECUTION_TOOL_NAME, WEB_SEARCH_TOOL_NAME];

/** The keys shared by tools.json and the executor option. */
export const toolSearchConfigSchema = z
  .strictObject({
    offerTool: z.boolean().optional().describe("Offer the search_tools tool to models, ranked like executor.searchTools (default false)."),
    searchFirst: z
      .boolean()
      .optional()
      .describe("Search-first listing for big registries: models are shown only search_tools, call_tool and the pinned tools; every tool stays callable by name. Implies offerTool (default false)."),
    pinnedTools: z
      .array(z.string().min(1))
      .optional()
      .describe("Under searchFirst, the tools listed besides search_tools and call_tool (default: request_human_input, code_execution, web_search, when registered)."),
    semanticWeight: z
      .number()
      .min(0)
      .max(1)
      .optional()
      .describe(`How much the semantic stage counts, 0-1: what the tool most similar to the request gains next to 1 for the best lexical match (default ${DEFAULT_SEMANTIC_WEIGHT} with the embedded word vectors, which only reorders near ties; ${DEFAULT_MODEL_WEIGHT} times the cosine similarity with a model).`),
    model: z
      .string()
      .min(1)
      .optional()
      .describe("A folder (relative to the project) holding a sentence-transformers ONNX export (model.onnx or onnx/model*.onnx, tokenizer.json or vocab.txt): tool search ranks with that model too. Needs the optional packages onnxruntime-node and @huggingface/tokenizers; scripts/fetch-search-model.mjs builds the default folder."),
  })
  .describe("Tool search: the search_tools tool and the search-first listing. executor.searchTools works without it.");

export type ToolSearchConfig = z.infer<typeof toolSearchConfigSchema>;

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
    if (value !== undefined && key in toolSearchConfigSchema.shape) (merged as Record<string, unknown>)[key] = value;
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
  return {
    key: "toolSearch",
    schema: toolSearchConfigSchema,
    resolve: (written) => resolveToolSearchSettings(written, fromOptions),
  };
}
