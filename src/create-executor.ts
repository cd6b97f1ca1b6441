/**
 * The composition root: `createExecutor` wires the built-in plugins (script tools, MCP servers,
 * human input, code mode, tool search, web search) into the core executor, and the public `Executor` is the core's surface
 * plus the built-in plugins' APIs. The core and the plugins know nothing of each other; only this
 * file knows them all.
 */
import { z } from "zod";
import { collectSections } from "./core/config/config-sections.js";
import { MAX_TIMEOUT_MS } from "./core/config/tools-config-schema.js";
import type { ProjectConfig } from "./core/config/load-project-config.js";
import { ToolexecError } from "./core/errors/toolexec-error.js";
import { createCoreExecutor, type CoreExecutor } from "./core/executor/create-core-executor.js";
import { checkOptions, configFileOptionSchema, coreOptionSchemas, resolveCheckedOptions, type CoreExecutorOptions } from "./core/executor/executor-options.js";
import type { PluginSpec } from "./core/executor/plugin-host.js";
import { CODE_EXECUTION_TOOL_NAME, HUMAN_INPUT_TOOL_NAME, WEB_SEARCH_TOOL_NAME } from "./core/tool-names.js";
import { codePlugin } from "./plugins/code/code-plugin.js";
import { codeExecutionConfigSchema, timeoutCeilingProblem, type CodeExecutionConfig } from "./plugins/code/config/code-execution-config-schema.js";
import { toCodeResult, type CodeRequest, type CodeResult } from "./plugins/code/code-result.js";
import type { SavedTool } from "./plugins/code/saved/saved-tool-file.js";
import type { SavedToolsApi, SavedToolSummary } from "./plugins/code/saved/saved-tools.js";
import { humanInputPlugin, type HumanInputHandler } from "./plugins/human/human-input-plugin.js";
import type { AuthorizationHandler } from "./plugins/mcp/auth/server-authorization.js";
import type { OAuthTokenStore } from "./plugins/mcp/auth/token-store.js";
import type { ElicitationHandler } from "./plugins/mcp/elicitation.js";
import { mcpPlugin, type McpApi } from "./plugins/mcp/mcp-plugin.js";
import type { SamplingHandler } from "./plugins/mcp/sampling.js";
import { pythonPlugin } from "./plugins/python/python-plugin.js";
import { scriptPlugin } from "./plugins/script/script-plugin.js";
import { toolSearchConfigSchema, type ResolvedToolSearchSettings, type ToolSearchConfig } from "./plugins/search/config/tool-search-config.js";
import { searchPlugin, type ToolSearchApi, type ToolSearchOptions, type ToolSearchResult } from "./plugins/search/search-plugin.js";
import { resolveWebSearchOption } from "./plugins/web-search/config/web-search-config-section.js";
import { webSearchConfigSchema, type WebSearchConfig } from "./plugins/web-search/config/web-search-config-schema.js";
import { webSearchPlugin } from "./plugins/web-search/web-search-plugin.js";

/** The options of `createExecutor`: the core's, plus those of the built-in plugins. */
export interface ExecutorOptions extends CoreExecutorOptions {
  /** mcp.json's path relative to root, or `false` to run without it. Default `"mcp.json"`. */
  mcpConfig?: string | false;
  /** Enables `request_human_input`: called with the question, returns the person's answer. */
  onHumanInput?: HumanInputHandler;
  /** Answers MCP servers' elicitation requests (a form or a URL for the user); without it servers are told the client cannot elicit. */
  onElicitation?: ElicitationHandler;
  /** Answers MCP servers' sampling requests (`sampling/createMessage`: a completion from the host's model); without it servers are told the client cannot sample. */
  onSampling?: SamplingHandler;
  /**
   * Sends a person to an OAuth server's authorization URL (`{ server, url, redirectUrl }`); the host
   * then passes the redirect's `code` and `state` to `executor.finishServerLogin`. See docs/auth.md.
   */
  onAuthorization?: AuthorizationHandler;
  /** MCP client behaviour. */
  mcp?: {
    /** How long `createExecutor` waits for servers' first connection before going on without them (they join later). Default 5000. */
    startupTimeoutMs?: number;
    /**
     * Start only these mcp.json servers (by name); the others are left out as if absent. Default: all.
     * For a caller that needs a few servers of a large config (the CLI starts only the server of the tool it calls).
     */
    servers?: string[];
    /** Where OAuth tokens are kept (default: 0600 files under `$XDG_CONFIG_HOME/toolexec/oauth`). See docs/auth.md. */
    tokenStore?: OAuthTokenStore;
  };
  /**
   * Code mode (`code_execution`, `executor.executeCode`): off unless `enabled`. Each key set here
   * overrides the same key of tools.json's `codeExecution`. See docs/code-execution.md.
   */
  codeExecution?: CodeExecutionConfig;
  /**
   * Tool search (`executor.searchTools` always works). Each key set here overrides the same key of
   * tools.json's `toolSearch` (offerTool, searchFirst, pinnedTools, semanticWeight; see
   * docs/tool-search.md); `embeddings` is an option only.
   */
  toolSearch?: ToolSearchConfig & {
    /**
     * Your own embedding model for the semantic stage: texts to vectors, one per text, all of one
     * length; called in batches of up to 128 texts, vectors cached by tool text. Default: the
     * embedded word vectors. `false`: lexical ranking only.
     */
    embeddings?: ((texts: string[]) => Promise<number[][]>) | false;
  };
  /**
   * The `web_search` tool: its provider, key and limits. Replaces tools.json's `webSearch` as a whole
   * (values are used as given: no `${VAR}`); `false` turns it off even when tools.json sets it.
   * See docs/web-search.md.
   */
  webSearch?: WebSearchConfig | false;
}

/** An executor: the core's surface, the MCP plugin's API (servers, resources, prompts), code mode and tool search. */
export interface Executor extends CoreExecutor, McpApi {
  /**
   * Run JavaScript in the sandbox (code mode); the same as calling the `code_execution` tool.
   * Resolves to a `CodeResult` for every fault of the run, including code execution being
   * disabled (`TOOL_NOT_FOUND`); throws only after `close()`. See docs/code-execution.md.
   */
  executeCode(request: CodeRequest, options?: { signal?: AbortSignal }): Promise<CodeResult>;
  /**
   * The tools that best match a request in plain words, best first, each `{ name, score, summary }`;
   * the ranking of the `search_tools` tool. `limit`: 1–100, default 10. See docs/tool-search.md.
   */
  searchTools(query: string, options?: ToolSearchOptions): Promise<ToolSearchResult[]>;
  /**
   * Save a code-mode program as a tool of its own (needs code execution enabled): checked like
   * tools.json (`INVALID_INPUT` lists every problem; nothing is written), written atomically to
   * `.toolexec/saved-tools/<name>.js`, and callable when the promise resolves. `overwrite` replaces a
   * saved tool of that name. See docs/saved-tools.md.
   *
   * @example
   * await executor.saveTool({ name: "double", description: "Twice a number", inputSchema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] }, code: "input.n * 2" });
   * await executor.callTool("double", { n: 21 }); // { ok: true, value: 42, ... }
   */
  saveTool(definition: SavedToolDefinition, options?: { overwrite?: boolean }): Promise<SavedTool>;
  /** The saved tools: `{ name, description, inputSchema, created, modified }` each. */
  listSavedTools(): Promise<SavedToolSummary[]>;
  /** One saved tool's whole definition with its code, or `undefined`. */
  showSavedTool(name: string): Promise<SavedTool | undefined>;
  /** Delete a saved tool (its file too); `false` when none has that name. */
  deleteSavedTool(name: string): Promise<boolean>;
}

/** What `saveTool` takes: a saved tool without its times. */
export type SavedToolDefinition = Omit<SavedTool, "created" | "modified">;

const BUILT_IN_PLUGIN_NAMES = ["script", "python", "mcp", "human", "code", "search", "web-search"] as const;

const optionsSchema = z.strictObject({
  ...coreOptionSchemas,
  onHumanInput: z.function().optional(),
  onElicitation: z.function().optional(),
  onSampling: z.function().optional(),
  onAuthorization: z.function().optional(),
  mcpConfig: configFileOptionSchema.optional(),
  codeExecution: codeExecutionConfigSchema.optional(),
  toolSearch: toolSearchConfigSchema.extend({ embeddings: z.union([z.function(), z.literal(false)]).optional() }).optional(),
  webSearch: z.union([webSearchConfigSchema, z.literal(false)]).optional(),
  mcp: z.strictObject({ startupTimeoutMs: z.number().int().nonnegative().max(MAX_TIMEOUT_MS).optional(), servers: z.array(z.string()).optional(), tokenStore: z.custom<OAuthTokenStore>(isTokenStore, "Expected a token store { load, save, remove }").optional() }).optional(),
});

function isTokenStore(value: unknown): boolean {
  const store = value as Record<string, unknown> | null;
  return typeof store === "object" && store !== null && typeof store.load === "function" && typeof store.save === "function" && typeof store.remove === "function";
}

/** Why a built-in tool is absent, and how to turn it on. */
function unavailableToolHint(name: string): string | undefined {
  if (name === CODE_EXECUTION_TOOL_NAME) {
    return 'Code execution is disabled: "code_execution" is offered only when enabled, with createExecutor({ codeExecution: { enabled: true } }) or "codeExecution": { "enabled": true } in tools.json';
  }
  if (name === HUMAN_INPUT_TOOL_NAME) {
    return 'No human input: "request_human_input" is offered only when the host answers questions, with createExecutor({ onHumanInput: async ({ question }) => answer })';
  }
  if (name === WEB_SEARCH_TOOL_NAME) {
    return 'Web search is not configured: "web_search" is offered only with a provider, with "webSearch": { "provider": "brave", "apiKey": "${BRAVE_API_KEY}" } in tools.json or createExecutor({ webSearch })';
  }
  return undefined;
}

/**
 * Create an executor for the project at `options.root`. Rejects with `ConfigError` when a config
 * file is missing or invalid, and with `INVALID_OPTIONS` for bad options.
 *
 * @example
 * import { createExecutor } from "toolexec";
 * const executor = await createExecutor({ root: "./my-project" });
 * const result = await executor.callTool("csv_summary", { path: "data/sales.csv" });
 * if (result.ok) console.log(result.value);
 * await executor.close();
 */
export async function createExecutor(options: ExecutorOptions = {}): Promise<Executor> {
  checkOptions(optionsSchema, options);
  const ceilingProblem = options.codeExecution === undefined ? undefined : timeoutCeilingProblem(options.codeExecution);
  if (ceilingProblem !== undefined) throw new ToolexecError("INVALID_OPTIONS", `Invalid createExecutor options: codeExecution.maxTimeoutMs: ${ceilingProblem}`);
  const webSearchOption = resolveWebSearchOption(options.webSearch);
  const resolved = resolveCheckedOptions(options, BUILT_IN_PLUGIN_NAMES);

  // One object per built-in plugin for the executor's life: the MCP plugin keeps the connections a
  // reload does not change, and each object is the key of its plugin's API.
  const script = scriptPlugin();
  const python = pythonPlugin();
  const mcp = mcpPlugin({
    startupTimeoutMs: options.mcp?.startupTimeoutMs,
    ...(options.onElicitation ? { onElicitation: options.onElicitation } : {}),
    ...(options.onSampling ? { onSampling: options.onSampling } : {}),
    ...(options.onAuthorization ? { onAuthorization: options.onAuthorization } : {}),
    ...(options.mcp?.tokenStore ? { tokenStore: options.mcp.tokenStore } : {}),
    ...(options.mcp?.servers ? { servers: [...options.mcp.servers] } : {}),
    configFile: options.mcpConfig ?? "mcp.json",
  });
  const human = options.onHumanInput ? humanInputPlugin(options.onHumanInput) : undefined;
  const search = searchPlugin({ ...options.toolSearch });
  // Code's search_tools ranks like searchTools: the composition root hands the ranking in, so neither plugin knows the other.
  const code = codePlugin({
    rankTools: async (query, rankOptions) => searchApi().search(query, rankOptions),
    // Asked when code mode starts: the search-first listing of the config being started.
    searchFirst: () => searchFirst,
    watch: resolved.watch,
    ...(options.codeExecution === undefined ? {} : { codeExecution: { ...options.codeExecution } }),
  });
  const webSearch = webSearchPlugin(webSearchOption);

  // Each plugin gets its own section of the config (`context.config`); the core leaves out those
  // whose section turns them off (code mode not enabled, no web search provider).
  let searchFirst = false;
  const plugins = (config: ProjectConfig): PluginSpec[] => {
    searchFirst = (config.sections[search.name] as ResolvedToolSearchSettings | undefined)?.searchFirst === true;
    return specsOf(config);
  };
  const specsOf = (config: ProjectConfig): PluginSpec[] => [
    { plugin: script, entries: config.entries.script },
    { plugin: python, entries: config.entries.python },
    { plugin: mcp, entries: [] },
    ...(human ? [{ plugin: human, entries: [] }] : []),
    { plugin: search, entries: [] },
    ...resolved.plugins.map((plugin) => ({ plugin, entries: [] })),
    { plugin: code, entries: [] },
    { plugin: webSearch, entries: [] },
  ];
  const sections = collectSections([script, python, mcp, ...(human ? [human] : []), search, ...resolved.plugins, code, webSearch], resolved.toolsConfig);

  const core = await createCoreExecutor({ options: resolved, plugins, sections, unavailableToolHint });
  /** The running MCP plugin's API; it runs for the executor's whole life, so only `close()` takes it away. */
  const mcpApi = (): McpApi => core.pluginApi(mcp) ?? closedError("use MCP servers");
  const searchApi = (): ToolSearchApi => core.pluginApi(search) ?? closedError("search tools");
  const savedToolsApi = (): SavedToolsApi => {
    const api = core.pluginApi(code);
    if (api) return api;
    throw new ToolexecError("TOOL_NOT_FOUND", `Saved tools need code execution: ${unavailableToolHint(CODE_EXECUTION_TOOL_NAME)}`);
  };

  return {
    get root() {
      return core.root;
    },
    get warnings() {
      return core.warnings;
    },
    listTools: () => core.listTools(),
    callTool: (name, args, callOptions) => core.callTool(name, args, callOptions),
    on: (event, listener) => core.on(event, listener),
    reload: () => core.reload(),
    configStatus: () => core.configStatus(),
    pluginApi: (plugin) => core.pluginApi(plugin),
    readRegistry: () => core.readRegistry(),
    registerTool: (entry, writeOptions) => core.registerTool(entry, writeOptions),
    replaceTool: (name, entry, writeOptions) => core.replaceTool(name, entry, writeOptions),
    updateTool: (name, patch, writeOptions) => core.updateTool(name, patch, writeOptions),
    removeTool: (name, writeOptions) => core.removeTool(name, writeOptions),
    close: () => core.close(),
    async executeCode(request, requestOptions = {}) {
      let args: unknown = request;
      try {
        if (request !== null && typeof request === "object") args = { ...request };
      } catch {
        // A Proxy whose traps throw goes on as it is, for callTool to answer INVALID_INPUT.
      }
      // callTool checks the options as its own: `null`, an unknown key or a signal that is not an
      // AbortSignal is INVALID_OPTIONS (it used to be a TypeError, or silently dropped).
      return toCodeResult(await core.callTool(CODE_EXECUTION_TOOL_NAME, args, requestOptions));
    },
    servers: () => mcpApi().servers(),
    listResources: async (requestOptions) => mcpApi().listResources(requestOptions),
    readResource: async (server, uri, requestOptions) => mcpApi().readResource(server, uri, requestOptions),
    subscribeResource: async (server, uri, listener, requestOptions) => mcpApi().subscribeResource(server, uri, listener, requestOptions),
    listResourceTemplates: async (requestOptions) => mcpApi().listResourceTemplates(requestOptions),
    listPrompts: async (requestOptions) => mcpApi().listPrompts(requestOptions),
    getPrompt: async (server, name, args, requestOptions) => mcpApi().getPrompt(server, name, args, requestOptions),
    complete: async (server, request, requestOptions) => mcpApi().complete(server, request, requestOptions),
    addServer: async (name, entry, addOptions) => mcpApi().addServer(name, entry, addOptions),
    removeServer: async (name) => mcpApi().removeServer(name),
    reviewTools: () => mcpApi().reviewTools(),
    approveTools: async (target) => mcpApi().approveTools(target),
    revokeTools: async (target) => mcpApi().revokeTools(target),
    startServerLogin: async (server) => mcpApi().startServerLogin(server),
    finishServerLogin: async (server, redirect) => mcpApi().finishServerLogin(server, redirect),
    logoutServer: async (server) => mcpApi().logoutServer(server),
    searchTools: async (query, searchOptions) => searchApi().search(query, searchOptions),
    saveTool: async (definition, saveOptions) => savedToolsApi().save(definition, saveOptions),
    listSavedTools: async () => savedToolsApi().list(),
    showSavedTool: async (name) => savedToolsApi().show(name),
    deleteSavedTool: async (name) => savedToolsApi().delete(name),
  };
}

function closedError(action: string): never {
  throw new ToolexecError("EXECUTOR_CLOSED", `Cannot ${action}: the executor is closed`);
}
