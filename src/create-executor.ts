/**
 * The composition root: `createExecutor` wires the built-in plugins (script tools, Python functions,
 * MCP servers, human input, code mode, tool search, web search) into the core executor, hands each
 * its part of the config, and composes the public `Executor` (src/executor.ts). The core and the
 * plugins know nothing of each other; only the composition root (this file, src/executor.ts and
 * src/executor-options.ts) knows them all.
 */
import type { ProjectConfig } from "./core/config/load-project-config.js";
import { createCoreExecutor } from "./core/executor/create-core-executor.js";
import { resolveCheckedOptions } from "./core/executor/executor-options.js";
import type { PluginSpec } from "./core/executor/plugin-host.js";
import { composeExecutor, toolSearchApi, type Executor } from "./executor.js";
import { checkExecutorOptions, type ExecutorOptions } from "./executor-options.js";
import { codePlugin } from "./plugins/code/code-plugin.js";
import { resolveCodeExecutionOptions } from "./plugins/code/code-execution-options.js";
import { humanInputPlugin } from "./plugins/human/human-input-plugin.js";
import { mcpPlugin } from "./plugins/mcp/mcp-plugin.js";
import { pythonPlugin } from "./plugins/python/python-plugin.js";
import { scriptPlugin } from "./plugins/script/script-plugin.js";
import { searchPlugin } from "./plugins/search/search-plugin.js";
import { webSearchPlugin } from "./plugins/web-search/web-search-plugin.js";
import { unavailableToolHint } from "./unavailable-tool-hint.js";

export type { Executor } from "./executor.js";
export type { ExecutorOptions } from "./executor-options.js";

const BUILT_IN_PLUGIN_NAMES = ["script", "python", "mcp", "human", "code", "search", "web-search"] as const;

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
  const checked = checkExecutorOptions(options);
  const resolved = resolveCheckedOptions(options, BUILT_IN_PLUGIN_NAMES);
  const codeOptions = options.codeExecution === undefined ? undefined : { ...options.codeExecution };
  const onlyServers = options.mcp?.servers === undefined ? undefined : new Set(options.mcp.servers);

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
  });
  const human = options.onHumanInput ? humanInputPlugin(options.onHumanInput) : undefined;
  const search = searchPlugin({ ...options.toolSearch });
  // Code's search_tools ranks like searchTools: the composition root hands the ranking in, so neither plugin knows the other.
  const code = codePlugin({ rankTools: async (query, rankOptions) => toolSearchApi(core, search).searchTools(query, rankOptions), searchFirst: options.toolSearch?.searchFirst === true, watch: resolved.watch });
  const webSearch = webSearchPlugin();

  // The config hand-over: which plugins run for a config, each with its part of it (at start and on every reload).
  const plugins = (config: ProjectConfig): PluginSpec[] => {
    const specs: PluginSpec[] = [
      { plugin: script, entries: config.entries.script },
      { plugin: python, entries: config.entries.python },
      { plugin: mcp, entries: onlyServers ? config.entries.mcp.filter((entry) => onlyServers.has(entry.name)) : config.entries.mcp },
    ];
    if (human) specs.push({ plugin: human, entries: [] });
    specs.push({ plugin: search, entries: [] });
    for (const plugin of resolved.plugins) specs.push({ plugin, entries: [] });
    // The resolved settings are the plugin's one entry: a change to them restarts its runtimes.
    const settings = resolveCodeExecutionOptions(config.codeExecution, codeOptions);
    if (settings.enabled) specs.push({ plugin: code, entries: [settings] });
    // The option, when given, decides alone; the settings are the plugin's one entry, so an edit restarts it.
    const webSearchSettings = checked.webSearch === undefined ? config.webSearch : checked.webSearch || undefined;
    if (webSearchSettings) specs.push({ plugin: webSearch, entries: [webSearchSettings] });
    return specs;
  };

  const core = await createCoreExecutor({ options: resolved, plugins, unavailableToolHint });
  return composeExecutor(core, { mcp, code, search });
}
