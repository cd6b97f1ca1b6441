/**
 * The `mcp` plugin as the executor starts it: its section (mcp.json) is read and checked at once, but
 * the plugin itself — the MCP SDK, its transports, OAuth — loads only when a server is to run: at
 * start when the config names one, otherwise on the first request that needs the plugin (`addServer`,
 * a login, a resource of a named server). A project without MCP servers never loads the SDK (about
 * 140 ms of CPU at start-up: bench/startup.mjs).
 */
import path from "node:path";
import type { PluginCallOptions, PluginContext, PluginInstance, ExecutorPlugin, ToolCall } from "../../core/plugin-contract.js";
import { PLUGIN_CONTRACT_VERSION } from "../../core/plugin-contract.js";
import { mcpConfigSection } from "./config/mcp-config-section.js";
import type { McpServerEntry } from "./config/resolve-mcp-server.js";
import type { McpApi } from "./mcp-api.js";
import type { McpPluginOptions } from "./mcp-plugin.js";
import { TRUST_LOCK_FILE } from "./trust/trust-lock-path.js";

type McpPlugin = ExecutorPlugin<McpServerEntry, McpApi, McpServerEntry[]>;
type McpInstance = PluginInstance<McpApi>;

/**
 * `mcpPlugin(options)`, loaded on first use; the same name, config section and API.
 *
 * @example
 * const mcp = lazyMcpPlugin({ configFile: "mcp.json" }); // the SDK loads once mcp.json names a server
 */
export function lazyMcpPlugin(options: McpPluginOptions = {}): McpPlugin {
  let plugin: Promise<McpPlugin> | undefined;
  // One plugin object for the executor's life: it keeps the servers added at run time across reloads.
  const load = () => (plugin ??= import("./mcp-plugin.js").then((module) => module.mcpPlugin(options)));
  return {
    name: "mcp",
    contractVersion: PLUGIN_CONTRACT_VERSION,
    config: mcpConfigSection({ file: options.configFile, ...(options.servers ? { servers: options.servers } : {}), strict: options.strict === true }),
    async start(given, context) {
      // A shared store may hold servers another replica added: followed from the start.
      if (given.length > 0 || (context.config?.length ?? 0) > 0 || plugin !== undefined || options.runtimeServers) return (await load()).start(given, context);
      return idleInstance(context, async () => (await load()).start([], context));
    },
  };
}

/**
 * The instance of a config without servers: nothing to list, call or explain, until a request needs
 * the plugin; from then on it forwards to the plugin's own instance, started with the same context.
 */
function idleInstance(context: PluginContext<McpServerEntry[]>, startPlugin: () => Promise<McpInstance>): McpInstance {
  let started: McpInstance | undefined;
  let starting: Promise<McpInstance> | undefined;
  let closed = false;
  const listeners = new Set<() => void>();
  const unsubscribes = new Map<() => void, () => void>();
  const wake = () =>
    (starting ??= startPlugin().then(async (instance) => {
      if (closed) {
        await instance.close();
        return instance;
      }
      started = instance;
      for (const listener of listeners) unsubscribes.set(listener, instance.onToolsChanged?.(listener) ?? (() => {}));
      return instance;
    }));
  const api = async () => (await wake()).api!;
  const mcpApi: McpApi = {
    servers: () => started?.api?.servers() ?? [],
    reviewTools: () => started?.api?.reviewTools() ?? { lockFile: path.join(context.root, TRUST_LOCK_FILE), servers: [], quarantined: 0 },
    // No server, nothing listed: answered without loading the plugin (clients ask these right after connecting).
    listResources: async (requestOptions) => (started ? started.api!.listResources(requestOptions) : []),
    listResourceTemplates: async (requestOptions) => (started ? started.api!.listResourceTemplates(requestOptions) : []),
    listPrompts: async (requestOptions) => (started ? started.api!.listPrompts(requestOptions) : []),
    readResource: async (...args) => (await api()).readResource(...args),
    subscribeResource: async (...args) => (await api()).subscribeResource(...args),
    getPrompt: async (...args) => (await api()).getPrompt(...args),
    complete: async (...args) => (await api()).complete(...args),
    addServer: async (...args) => (await api()).addServer(...args),
    removeServer: async (...args) => (await api()).removeServer(...args),
    approveTools: async (...args) => (await api()).approveTools(...args),
    revokeTools: async (...args) => (await api()).revokeTools(...args),
    startServerLogin: async (...args) => (await api()).startServerLogin(...args),
    finishServerLogin: async (...args) => (await api()).finishServerLogin(...args),
    logoutServer: async (...args) => (await api()).logoutServer(...args),
  };
  return {
    listTools: () => started?.listTools() ?? [],
    callTool: async (call: ToolCall, callOptions: PluginCallOptions) => (await wake()).callTool(call, callOptions),
    onToolsChanged(listener) {
      listeners.add(listener);
      if (started) unsubscribes.set(listener, started.onToolsChanged?.(listener) ?? (() => {}));
      return () => {
        listeners.delete(listener);
        unsubscribes.get(listener)?.();
        unsubscribes.delete(listener);
      };
    },
    secrets: () => started?.secrets?.() ?? [],
    explainMissingTool: (name) => started?.explainMissingTool?.(name),
    resolveMissingTool: async (name, resolveOptions) => (started?.resolveMissingTool ? started.resolveMissingTool(name, resolveOptions) : false),
    api: mcpApi,
    async close() {
      closed = true;
      // A start that failed has nothing to close (its request already got the failure).
      await starting?.then((instance) => instance.close(), () => undefined);
    },
  };
}
