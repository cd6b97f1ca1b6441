/**
 * The composition root: `createExecutor` wires the built-in plugins (script tools, Python functions,
 * MCP servers, human input, code mode, tool search, web search) into the core executor, hands each
 * its part of the config, and composes the public `Executor` (src/executor.ts). The core and the
 * plugins know nothing of each other; only the composition root (this file, src/executor.ts and
 * src/executor-options.ts) knows them all.
 */
import { collectSections } from "./core/config/config-sections.js";
import type { ProjectConfig } from "./core/config/load-project-config.js";
import { createCoreExecutor } from "./core/executor/create-core-executor.js";
import { resolveCheckedOptions } from "./core/executor/executor-options.js";
import type { PluginSpec } from "./core/executor/plugin-host.js";
import { composeExecutor, toolSearchApi, type Executor } from "./executor.js";
import { checkExecutorOptions, type ExecutorOptions } from "./executor-options.js";
import { codePlugin } from "./plugins/code/code-plugin.js";
import { humanInputPlugin } from "./plugins/human/human-input-plugin.js";
import { lazyMcpPlugin as mcpPlugin } from "./plugins/mcp/lazy-mcp-plugin.js";
import { lazyPythonPlugin as pythonPlugin } from "./plugins/python/lazy-python-plugin.js";
import { scriptPlugin } from "./plugins/script/script-plugin.js";
import type { ResolvedToolSearchSettings } from "./plugins/search/config/tool-search-config.js";
import { searchPlugin } from "./plugins/search/search-plugin.js";
import { webSearchPlugin } from "./plugins/web-search/web-search-plugin.js";
import { createResultStore } from "./core/results/result-store.js";
import { resultsPlugin } from "./plugins/results/results-plugin.js";
import { identityPlugin, profilesPlugin } from "./gateway/gateway-plugins.js";
import { unavailableToolHint } from "./unavailable-tool-hint.js";
import { openProjectStore } from "./project-store.js";

export type { Executor } from "./executor.js";
export type { ExecutorOptions } from "./executor-options.js";

const BUILT_IN_PLUGIN_NAMES = ["script", "python", "mcp", "human", "code", "search", "web-search", "results"] as const;

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
  const checked = await checkExecutorOptions(options);
  const resolved = resolveCheckedOptions(options, BUILT_IN_PLUGIN_NAMES);
  // Opened first: a shared store brings the project's shared files up to date before they are read.
  const projectStore = await openProjectStore(options.store, resolved);
  const tokenStore = options.mcp?.tokenStore ?? projectStore.tokenStore;

  // One object per built-in plugin for the executor's life: the MCP plugin keeps the connections a
  // reload does not change, and each object is the key of its plugin's API.
  const script = scriptPlugin();
  const python = pythonPlugin();
  const mcp = mcpPlugin({
    startupTimeoutMs: options.mcp?.startupTimeoutMs,
    ...(options.onElicitation ? { onElicitation: options.onElicitation } : {}),
    ...(options.onSampling ? { onSampling: options.onSampling } : {}),
    ...(options.onAuthorization ? { onAuthorization: options.onAuthorization } : {}),
    ...(tokenStore ? { tokenStore } : {}),
    ...(projectStore.runtimeServers ? { runtimeServers: projectStore.runtimeServers } : {}),
    ...(options.mcp?.servers ? { servers: [...options.mcp.servers] } : {}),
    ...(options.mcp?.installTimeoutMs === undefined ? {} : { installTimeoutMs: options.mcp.installTimeoutMs }),
    ...(options.mcp?.start === undefined ? {} : { start: options.mcp.start }),
    ...(options.mcp?.waitForInstalls ? { waitForInstalls: true } : {}),
    configFile: options.mcpConfig ?? "mcp.json",
    strict: resolved.strict,
  });
  const human = options.onHumanInput ? humanInputPlugin(options.onHumanInput) : undefined;
  const search = searchPlugin({ ...options.toolSearch });
  // Code's search_tools ranks like searchTools: the composition root hands the ranking in, so neither plugin knows the other.
  const code = codePlugin({
    rankTools: async (query, rankOptions) => toolSearchApi(core, search).searchTools(query, rankOptions),
    // Asked when code mode starts: the search-first listing of the config being started.
    searchFirst: () => searchFirst,
    watch: resolved.watch,
    ...(options.codeExecution === undefined ? {} : { codeExecution: { ...options.codeExecution } }),
  });
  const webSearch = webSearchPlugin(checked.webSearch);
  // One store per executor: the core fills it when it bounds a result, read_result pages it.
  const resultStore = createResultStore(resolved.results.store);
  const results = resultsPlugin({ store: resultStore });

  // The config hand-over: each plugin gets its own section of the config (`context.config`, at start
  // and on every reload); the core leaves out those whose section turns them off (code mode not
  // enabled, no web search provider).
  let searchFirst = false;
  const plugins = (config: ProjectConfig): PluginSpec[] => {
    searchFirst = (config.sections[search.name] as ResolvedToolSearchSettings | undefined)?.searchFirst === true;
    return [
      { plugin: script, entries: config.entries.script },
      { plugin: python, entries: config.entries.python },
      { plugin: mcp, entries: [] },
      ...(human ? [{ plugin: human, entries: [] }] : []),
      { plugin: search, entries: [] },
      ...resolved.plugins.map((plugin) => ({ plugin, entries: [] })),
      { plugin: code, entries: [] },
      { plugin: webSearch, entries: [] },
      { plugin: results, entries: [] },
      { plugin: profilesPlugin, entries: [] },
      { plugin: identityPlugin, entries: [] },
    ];
  };
  const sections = collectSections([script, python, mcp, ...(human ? [human] : []), search, ...resolved.plugins, code, webSearch, profilesPlugin, identityPlugin], resolved.toolsConfig);

  let core: Awaited<ReturnType<typeof createCoreExecutor>>;
  try {
    core = await createCoreExecutor({ options: resolved, plugins, sections, unavailableToolHint, resultStore });
  } catch (error) {
    await projectStore.close();
    throw error;
  }
  const executor = composeExecutor(core, { mcp, code, search }, projectStore.store);
  projectStore.attach(executor);
  return executor;
}
