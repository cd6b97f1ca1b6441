/** The `toolSearch` object of tools.json and of `createExecutor({ toolSearch })`, as a strict zod schema (loaded on demand). */
import { z } from "zod";
import { DEFAULT_MODEL_WEIGHT, DEFAULT_SEMANTIC_WEIGHT } from "./default-weights.js";

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
