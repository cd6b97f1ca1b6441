/**
 * The public `Executor`: the core executor's surface and the built-in plugins' APIs, composed into
 * one object. Each part keeps its own checks (use after `close()` is `EXECUTOR_CLOSED`); the
 * plugins' APIs are looked up on every call, so a plugin restarted by a reload serves the next one.
 */
import { ToolexecError } from "./core/errors/toolexec-error.js";
import type { CoreExecutor } from "./core/executor/create-core-executor.js";
import type { ExecutorPlugin } from "./core/plugin-contract.js";
import { CODE_EXECUTION_TOOL_NAME } from "./core/tool-names.js";
import { composeSurfaces, forwardMethods, type CallStyles } from "./compose-surfaces.js";
import { createCodeExecutionApi, type CodeExecutionApi } from "./plugins/code/execute-code.js";
import type { SavedToolsApi } from "./plugins/code/saved/saved-tools.js";
import type { McpApi } from "./plugins/mcp/mcp-plugin.js";
import type { ToolSearchApi } from "./plugins/search/search-plugin.js";
import { unavailableToolHint } from "./unavailable-tool-hint.js";
import type { Store } from "./core/store/store.js";

/**
 * An executor: the core's surface (tools, calls, events, config, registry writes, `close`), the
 * MCP plugin's API (servers, resources, prompts, trust, logins), code mode with saved tools, and
 * tool search. See docs/api.md#executor.
 *
 * @example
 * const executor: Executor = await createExecutor({ root: "./my-project" });
 * const result = await executor.callTool("csv_summary", { path: "data/sales.csv" });
 */
export interface Executor extends CoreExecutor, McpApi, CodeExecutionApi, SavedToolsApi, Pick<ToolSearchApi, "searchTools"> {
  /** Where shared state lives: the `store` option's, or the project's files. See docs/api.md#store. */
  readonly store: Store;
}

/** The built-in plugins whose APIs the executor offers as its own members (the same objects the core runs). */
export interface ExecutorPluginApis {
  mcp: ExecutorPlugin<never, McpApi>;
  code: ExecutorPlugin<never, SavedToolsApi>;
  search: ExecutorPlugin<never, ToolSearchApi>;
}

const MCP_METHODS: CallStyles<McpApi> = {
  servers: "sync",
  listResources: "async",
  readResource: "async",
  subscribeResource: "async",
  listResourceTemplates: "async",
  listPrompts: "async",
  getPrompt: "async",
  complete: "async",
  addServer: "async",
  removeServer: "async",
  reviewTools: "sync",
  approveTools: "async",
  revokeTools: "async",
  startServerLogin: "async",
  finishServerLogin: "async",
  logoutServer: "async",
};

const SAVED_TOOLS_METHODS: CallStyles<SavedToolsApi> = { saveTool: "async", listSavedTools: "async", showSavedTool: "async", deleteSavedTool: "async" };

/**
 * The running search plugin's API, for the executor's `searchTools` and for code mode's ranking;
 * the search plugin runs for the executor's whole life, so only `close()` takes it away.
 */
export function toolSearchApi(core: CoreExecutor, search: ExecutorPlugin<never, ToolSearchApi>): ToolSearchApi {
  return core.pluginApi(search) ?? closedError("search tools");
}

/** The one public object over a started core executor. */
export function composeExecutor(core: CoreExecutor, plugins: ExecutorPluginApis, store: Store): Executor {
  // The MCP plugin, like search, runs for the executor's whole life.
  const mcpApi = (): McpApi => core.pluginApi(plugins.mcp) ?? closedError("use MCP servers");
  const savedToolsApi = (): SavedToolsApi => {
    const api = core.pluginApi(plugins.code);
    if (api) return api;
    throw new ToolexecError("TOOL_NOT_FOUND", `Saved tools need code execution: ${unavailableToolHint(CODE_EXECUTION_TOOL_NAME)}`);
  };
  const executor: Executor = composeSurfaces(
    core,
    forwardMethods(mcpApi, MCP_METHODS),
    createCodeExecutionApi((name, args, options) => core.callTool(name, args, options)),
    forwardMethods(savedToolsApi, SAVED_TOOLS_METHODS),
    forwardMethods(() => toolSearchApi(core, plugins.search), { searchTools: "async" }),
    { store },
  );
  return executor;
}

function closedError(action: string): never {
  throw new ToolexecError("EXECUTOR_CLOSED", `Cannot ${action}: the executor is closed`);
}
