/**
 * Tool search: one index over every registry tool, kept current as tools come and go, served as
 * the plugin's `api` (`executor.searchTools` in the public API) and, when offered, as the
 * `search_tools` tool.
 * The index is brought up to date on the first search after a change, re-indexing only the tools
 * whose definition changed, so a burst of changes (a reload, servers connecting) costs one update.
 */
import type { ExecutorPlugin, PluginInstance, PluginResult, ToolDefinition } from "../../core/plugin-contract.js";
import { toolError } from "../../core/tool-result.js";
import { SEARCH_TOOLS_TOOL_NAME } from "../../core/tool-names.js";
import { rankTools, type ToolSearchResult } from "./rank-tools.js";
import { createToolIndex, type IndexUpdate } from "./tool-index.js";
import { createSemanticIndex, type EmbedTexts, type SemanticIndex } from "./semantic-index.js";
import { embedWithWordVectors } from "./embed-with-word-vectors.js";

export type { ToolSearchResult };
export { SEARCH_TOOLS_TOOL_NAME };

/** How many results a search returns when it names no limit. */
export const DEFAULT_SEARCH_LIMIT = 10;
/** Most results one search returns. */
export const MAX_SEARCH_LIMIT = 100;

/** Options of one search. */
export interface ToolSearchOptions {
  /** How many results, best first (1–100, default 10). */
  limit?: number;
}

/** The search plugin's API, reached with `executor.pluginApi(plugin)`. */
export interface ToolSearchApi {
  /** The tools that best match a request in plain language, best first; `[]` for a blank query. */
  search(query: string, options?: ToolSearchOptions): Promise<ToolSearchResult[]>;
  /** Bring the index up to date now (searches do it themselves); says what changed. */
  refresh(): IndexUpdate;
}

const definition: ToolDefinition = {
  name: SEARCH_TOOLS_TOOL_NAME,
  description:
    "Find the tools that fit a task, described in plain words; returns their names, best match first, with a one-line summary each. " +
    "Use it when no listed tool obviously fits, or to choose among many.",
  inputSchema: {
    type: "object",
    properties: {
      query: { type: "string", minLength: 1, maxLength: 2000, description: "The task, in plain words." },
      limit: { type: "integer", minimum: 1, maximum: MAX_SEARCH_LIMIT, description: `How many tools to return (default ${DEFAULT_SEARCH_LIMIT}).` },
    },
    required: ["query"],
    additionalProperties: false,
  },
  outputSchema: {
    type: "array",
    items: {
      type: "object",
      properties: { name: { type: "string" }, score: { type: "number" }, summary: { type: "string" } },
      required: ["name", "score", "summary"],
    },
  },
  annotations: { title: "Search tools", readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  parallel: true,
};

/** The limit to use: a positive integer up to the maximum, else the default. */
function resolveLimit(limit: unknown): number {
  if (typeof limit !== "number" || !Number.isFinite(limit) || limit < 1) return DEFAULT_SEARCH_LIMIT;
  return Math.min(Math.floor(limit), MAX_SEARCH_LIMIT);
}

/** Options of the search plugin. */
export interface SearchPluginOptions {
  /** Offer the `search_tools` tool to models; without it the plugin serves only its API. Default false. */
  offerTool?: boolean;
  /**
   * The semantic stage's embedding function: texts to vectors (one per text, all of one length).
   * Default: the embedded word vectors. `false`: lexical ranking only.
   */
  embeddings?: EmbedTexts | false;
}

/**
 * The plugin; the executor always runs it, and offers its tool with `toolSearch: { offerTool: true }`.
 *
 * @example
 * const search = searchPlugin({ offerTool: true });
 * const executor = await createExecutor({ toolsConfig: false, mcpConfig: false, plugins: [search] });
 * executor.pluginApi(search)?.search("open a ticket", { limit: 3 });
 */
export function searchPlugin(options: SearchPluginOptions = {}): ExecutorPlugin<never, ToolSearchApi> {
  const tools = options.offerTool === true ? [definition] : [];
  return {
    name: "search",
    async start(_entries, context): Promise<PluginInstance<ToolSearchApi>> {
      const index = createToolIndex();
      let stale = true;
      const unsubscribe = context.onToolsChanged(() => {
        stale = true;
      });
      const refresh = (): IndexUpdate => {
        stale = false;
        return index.update(context.listTools());
      };
      const embed = options.embeddings ?? embedWithWordVectors;
      /** Made on the first search, so an executor that never searches never loads vectors. */
      let semantic: SemanticIndex | undefined;
      const api: ToolSearchApi = {
        async search(query, searchOptions = {}) {
          if (stale) refresh();
          if (typeof query !== "string" || query.trim() === "") return [];
          if (embed === false) return rankTools(index, query, resolveLimit(searchOptions.limit));
          semantic ??= createSemanticIndex(embed);
          let version: number;
          let similarities: Float32Array;
          // A concurrent search may re-index while this one waits for vectors: score against one version.
          do {
            version = index.version;
            similarities = await semantic.similarities(index, query);
          } while (index.version !== version);
          return rankTools(index, query, resolveLimit(searchOptions.limit), { similarities });
        },
        refresh,
      };
      return {
        listTools: () => tools,
        async callTool(call): Promise<PluginResult> {
          if (call.name !== SEARCH_TOOLS_TOOL_NAME || tools.length === 0) return toolError("TOOL_NOT_FOUND", `The search plugin has no tool "${call.name}"`);
          const args = call.arguments as { query: string; limit?: number };
          return { ok: true, value: await api.search(args.query, { limit: args.limit ?? DEFAULT_SEARCH_LIMIT }) };
        },
        api,
        async close() {
          unsubscribe();
        },
      };
    },
  };
}
