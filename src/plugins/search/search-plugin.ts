/**
 * Tool search: one index over every registry tool, kept current as tools come and go, served as
 * the plugin's `api` (`executor.searchTools` in the public API) and, when offered, as the
 * `search_tools` tool; under the search-first listing, also `call_tool`, and models are shown only
 * those two and the pinned tools.
 * Nothing is indexed at start: the first build comes with the first search or, when none comes, in
 * the background a little after start; then each change is followed in the background, in short
 * slices (`background-indexer`), re-indexing only the tools whose definition changed; a search that
 * comes first finishes the remainder itself, so results never depend on timing.
 */
import { PLUGIN_CONTRACT_VERSION, type ExecutorPlugin, type PluginInstance, type PluginResult, type ToolDefinition } from "../../core/plugin-contract.js";
import { ToolexecError } from "../../core/errors/toolexec-error.js";
import { toolError } from "../../core/tool-result.js";
import { CALL_TOOL_TOOL_NAME, DESCRIBE_TOOLS_TOOL_NAME, READ_RESULT_TOOL_NAME, SEARCH_TOOLS_TOOL_NAME } from "../../core/tool-names.js";
import { DEFAULT_PINNED_TOOLS, resolveToolSearchSettings, toolSearchConfigSection, type ResolvedToolSearchSettings, type ToolSearchConfig } from "./config/tool-search-config.js";
import type { ToolSearchResult } from "./rank-tools.js";
import type { IndexUpdate } from "./tool-index.js";
import { IDLE_BUILD_DELAY_MS, IDLE_BUILD_MIN_TOOLS } from "./background-indexer.js";
import type { EmbedTexts } from "./semantic-index.js";
import type { SearchEngine } from "./search-engine.js";
import { checkDetail, type SearchDetail, DEFAULT_SEARCH_LIMIT, MAX_QUERY_LENGTH, MAX_SEARCH_LIMIT, SEARCH_TOOLS_DEFINITION, resolveLimit } from "./search-tools-tool.js";
import { CALL_TOOL_DEFINITION, callNamedTool } from "./call-tool-tool.js";
import { DESCRIBE_TOOLS_DEFINITION, describeTools } from "./describe-tools-tool.js";
import { viewedResults, viewedTools } from "./caller-view.js";

export type { ToolSearchResult, EmbedTexts, SearchDetail };
export { SEARCH_TOOLS_TOOL_NAME, DEFAULT_SEARCH_LIMIT, MAX_QUERY_LENGTH, MAX_SEARCH_LIMIT, DEFAULT_PINNED_TOOLS };

/** Options of one search. */
export interface ToolSearchOptions {
  /** How many results, best first (1–100, default 10). */
  limit?: number;
  /** `"summary"` (default): `{ name, score, summary }`; `"schema"`: each result carries its `inputSchema` too. */
  detail?: SearchDetail;
}

/** The search plugin's API, reached with `executor.pluginApi(plugin)`; the executor offers its `searchTools`. */
export interface ToolSearchApi {
  /**
   * The tools that best match a request in plain words, best first, each `{ name, score, summary }`
   * (and `inputSchema` with `detail: "schema"`); the ranking of the `search_tools` tool. `limit`:
   * 1–100, default 10; `[]` for a blank query; a query over 2,000 characters (`MAX_QUERY_LENGTH`)
   * or another `detail` is `INVALID_INPUT`.
   * See docs/tool-search.md.
   *
   * @example
   * const [best] = await executor.searchTools("open a ticket about the login bug", { limit: 3 });
   */
  searchTools(query: string, options?: ToolSearchOptions): Promise<ToolSearchResult[]>;
  /** Bring the index up to date now (searches do it themselves); says what changed. */
  refresh(): Promise<IndexUpdate>;
  /** The settings it runs with: tools.json's `toolSearch` under the host's option, defaults applied. */
  readonly settings: ResolvedToolSearchSettings;
}

/**
 * Options of the search plugin: tools.json's `toolSearch` keys (each set here overrides the file's),
 * and the embedding function, which only an option can give.
 */
export interface SearchPluginOptions extends ToolSearchConfig {
  /**
   * The semantic stage's embedding function: texts to vectors (one per text, all of one length),
   * called in batches of up to 128 texts. Default: the embedded word vectors. `false`: lexical only.
   */
  embeddings?: EmbedTexts | false;
}

/**
 * The plugin; the executor always runs it, and offers its tool with `"toolSearch": { "offerTool": true }`
 * in tools.json or the `toolSearch` option of `createExecutor`.
 *
 * @example
 * const search = searchPlugin({ offerTool: true });
 * const executor = await createExecutor({ toolsConfig: false, mcpConfig: false, plugins: [search] });
 * await executor.pluginApi(search)?.searchTools("open a ticket", { limit: 3 });
 */
export function searchPlugin(options: SearchPluginOptions = {}): ExecutorPlugin<never, ToolSearchApi, ResolvedToolSearchSettings> {
  const { embeddings, ...settingsOptions } = options;
  return {
    name: "search",
    contractVersion: PLUGIN_CONTRACT_VERSION,
    config: toolSearchConfigSection(settingsOptions),
    async start(_entries, context): Promise<PluginInstance<ToolSearchApi>> {
      const settings = context.config ?? resolveToolSearchSettings(undefined, settingsOptions);
      const { searchFirst } = settings;
      const tools = searchFirst ? [SEARCH_TOOLS_DEFINITION, DESCRIBE_TOOLS_DEFINITION, CALL_TOOL_DEFINITION] : settings.offerTool ? [SEARCH_TOOLS_DEFINITION, DESCRIBE_TOOLS_DEFINITION] : [];
      // read_result stays listed: a cut result names it, and the model must be able to follow.
      const listed = new Set([SEARCH_TOOLS_TOOL_NAME, DESCRIBE_TOOLS_TOOL_NAME, CALL_TOOL_TOOL_NAME, READ_RESULT_TOOL_NAME, ...settings.pinnedTools]);
      const offers = (name: string) => tools.some((tool) => tool.name === name);
      const closing = new AbortController();
      let engine: Promise<SearchEngine> | undefined;
      let changed = false;
      const startEngine = (idleDelay: number) => {
        engine ??= import("./search-engine.js").then(async ({ startSearchEngine }) => {
          const started = await startSearchEngine(settings, embeddings, context, idleDelay);
          if (changed) started.markStale();
          return started;
        });
        return engine;
      };
      // A model folder and its packages are checked at start, so a bad one fails here.
      const checksAtStart = settings.model !== null && embeddings === undefined;
      if (checksAtStart) await startEngine(IDLE_BUILD_DELAY_MS);
      // Otherwise nothing loads until the first search, or the idle build when none comes: only for a
      // registry large enough that building on the first search would be slow; a small one stays unbuilt.
      const idleBuild = () => {
        if (context.listTools().length >= IDLE_BUILD_MIN_TOOLS) void startEngine(0).catch(() => undefined);
      };
      const idle = checksAtStart ? undefined : setTimeout(idleBuild, IDLE_BUILD_DELAY_MS);
      idle?.unref();
      const unsubscribe = context.onToolsChanged(() => {
        changed = true;
        void engine?.then((started) => started.markStale(), () => undefined);
      });
      const api: ToolSearchApi = {
        async searchTools(query, searchOptions = {}) {
          const detail = checkDetail(searchOptions.detail);
          const limit = resolveLimit(searchOptions.limit);
          const started = await startEngine(0);
          const results = await started.rank(query, limit);
          if (detail === "summary") return results;
          return results.map((result) => ({ ...result, inputSchema: started.document(result.name)?.inputSchema }));
        },
        refresh: async () => (await startEngine(0)).refresh(),
        settings,
      };
      return {
        listTools: () => tools,
        async callTool(call, callOptions): Promise<PluginResult> {
          if (!offers(call.name)) return toolError("TOOL_NOT_FOUND", `The search plugin has no tool "${call.name}"`);
          if (call.name === CALL_TOOL_TOOL_NAME) return callNamedTool(call.arguments as { name: string; arguments?: Record<string, unknown> }, callOptions, closing.signal);
          // A served caller's view (its profile, scopes and tier): it finds and reads only what it may call.
          const access = callOptions.caller?.access;
          if (call.name === DESCRIBE_TOOLS_TOOL_NAME) return { ok: true, value: describeTools((call.arguments as { names: string[] }).names, viewedTools(context.listTools(), access)) };
          const args = call.arguments as { query: string; limit?: number; detail?: SearchDetail };
          const found = await api.searchTools(args.query, { limit: args.limit ?? DEFAULT_SEARCH_LIMIT, detail: args.detail ?? "summary" });
          return { ok: true, value: viewedResults(found, context.listTools(), access) };
        },
        // A listing policy, not access control: under search-first the other tools stay callable.
        ...(searchFirst ? { isListed: (tool: ToolDefinition) => listed.has(tool.name) } : {}),
        api,
        async close() {
          unsubscribe();
          clearTimeout(idle);
          await (await engine?.catch(() => undefined))?.close();
          closing.abort(new ToolexecError("EXECUTOR_CLOSED", "The search plugin closed while the call was under way"));
        },
      };
    },
  };
}
