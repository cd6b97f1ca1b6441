/**
 * The `python` plugin as the executor starts it: its section (`pythonModules`) is read and checked at
 * once, but the plugin itself — workers, environments, the describe protocol — loads only when there
 * is a Python function to serve: tools.json names one, or `pythonModules` lists a file. A project
 * without either (script tools only) never loads it; a reload that adds one restarts the plugin
 * with its entries, which loads it then.
 */
import { PLUGIN_CONTRACT_VERSION, type ExecutorPlugin, type PluginInstance } from "../../core/plugin-contract.js";
import { toolError } from "../../core/tool-result.js";
import { pythonModulesSection } from "./config/python-modules-section.js";
import type { PythonApi, PythonEntry, PythonSettings } from "./python-plugin.js";

type PythonPlugin = ExecutorPlugin<PythonEntry, PythonApi, PythonSettings>;

/**
 * `pythonPlugin(options)`, loaded on first use; the same name, config section and API.
 *
 * @example
 * const python = lazyPythonPlugin(); // the workers' code loads once tools.json names a function
 */
export function lazyPythonPlugin(options: { maxWorkers?: number } = {}): PythonPlugin {
  let plugin: Promise<PythonPlugin> | undefined;
  const load = () => (plugin ??= import("./python-plugin.js").then((module) => module.pythonPlugin(options)));
  return {
    name: "python",
    contractVersion: PLUGIN_CONTRACT_VERSION,
    config: pythonModulesSection(),
    async start(given, context) {
      if (given.length > 0 || (context.config?.modules.length ?? 0) > 0) return (await load()).start(given, context);
      return idleInstance();
    },
  };
}

/** What the plugin answers with nothing to serve: no tools, no workers. */
function idleInstance(): PluginInstance<PythonApi> {
  let closed = false;
  return {
    listTools: () => [],
    secrets: () => [],
    onToolsChanged: () => () => {},
    unavailableTools: () => [],
    async callTool(call) {
      if (closed) return toolError("EXECUTOR_CLOSED", "The python plugin is closed");
      return toolError("TOOL_NOT_FOUND", `No Python function tool named "${call.name}"`);
    },
    api: { workerPids: () => [] },
    async close() {
      closed = true;
    },
  };
}
