/** `createExecutor`: loads a project's config, starts its plugins and serves every call through one pipeline. */
import { loadProjectConfig, type ProjectConfig } from "../config/load-project-config.js";
import { formatConfigIssue, type ConfigIssue } from "../errors/config-error.js";
import { ToolexecError, isToolexecError } from "../errors/toolexec-error.js";
import { createEmitter, type Unsubscribe } from "../events.js";
import { createExecutionLog } from "../log/execution-log.js";
import type { CallToolOptions, ExecutorPlugin, JsonSchema, ToolAnnotations } from "../plugin-contract.js";
import { createScheduler } from "../schedule/scheduler.js";
import type { ToolResult } from "../tool-result.js";
import { humanInputPlugin } from "../../plugins/human/human-input-plugin.js";
import { scriptPlugin } from "../../plugins/script/script-plugin.js";
import { asMcpInstance, mcpPlugin, type AddServerResult } from "../../plugins/mcp/mcp-plugin.js";
import type { AddServerOptions } from "../../plugins/mcp/prepare-runtime-server.js";
import type { McpResourceInfo, McpServerInfo } from "../../plugins/mcp/server-info.js";
import type { ReadResourceResult, ResourceRequestOptions } from "../../plugins/mcp/server-resources.js";
import { codePlugin, CODE_PLUGIN_NAME, type CodePluginInstance } from "../../plugins/code/code-plugin.js";
import { resolveCodeExecutionOptions } from "../../plugins/code/code-execution-options.js";
import { toCodeResult, type CodeRequest, type CodeResult } from "../../plugins/code/code-result.js";
import { CODE_EXECUTION_TOOL_NAME } from "../../plugins/code/declarations/index.js";
import { createCallPipeline } from "./call-pipeline.js";
import { watchConfig, type ConfigWatcher } from "./config-watcher.js";
import type { ExecutorEvents } from "./executor-events.js";
import { resolveExecutorOptions, type ExecutorOptions, type ResolvedExecutorOptions } from "./executor-options.js";
import { createPluginHost, type PluginSpec } from "./plugin-host.js";

/** A tool as an LLM host sees it. */
export interface ToolInfo {
  name: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  annotations?: ToolAnnotations;
}

export type ReloadResult = { ok: true; restarted: string[] } | { ok: false; error: ToolexecError };

export interface Executor {
  /** The project folder, absolute. */
  readonly root: string;
  /** Non-fatal config problems of the config in force (e.g. a script that does not exist yet). */
  readonly warnings: readonly ConfigIssue[];
  /**
   * Every callable tool with its JSON Schemas; with `codeExecution.listOnlyCodeExecution`, only
   * `code_execution` and the excluded tools (the others stay callable).
   */
  listTools(): Promise<ToolInfo[]>;
  /** Run a tool. Resolves to a result envelope; throws only after `close()` (`EXECUTOR_CLOSED`). */
  callTool(name: string, args?: unknown, options?: CallToolOptions): Promise<ToolResult>;
  /** Subscribe to an event; returns the unsubscribe function. */
  on<Name extends keyof ExecutorEvents>(event: Name, listener: (payload: ExecutorEvents[Name]) => void): Unsubscribe;
  /** Re-read the config now (what the watcher does on a change); keeps the last good config on failure. */
  reload(): Promise<ReloadResult>;
  /**
   * Run JavaScript in the sandbox (code mode); the same as calling the `code_execution` tool.
   * Resolves to a `CodeResult` for every fault of the run, including code execution being
   * disabled (`TOOL_NOT_FOUND`); throws only after `close()`. See docs/code-execution.md.
   */
  executeCode(request: CodeRequest, options?: { signal?: AbortSignal }): Promise<CodeResult>;
  /** Stop every process, connection, watcher and timer. Idempotent. */
  close(): Promise<void>;
  /** Every MCP server (mcp.json's and those added at run time) with its state: connected, retrying, failed, disabled. */
  servers(): McpServerInfo[];
  /** The resources of the connected MCP servers. */
  listResources(options?: ResourceRequestOptions): Promise<McpResourceInfo[]>;
  /** Read one resource of one MCP server; faults come back as `{ ok: false, error }`. */
  readResource(server: string, uri: string, options?: ResourceRequestOptions): Promise<ReadResourceResult>;
  /**
   * Add an MCP server at run time, e.g. a URL an end user brings. Untrusted (the default) entries must
   * be http(s) URLs to public addresses (`SERVER_NOT_ALLOWED` otherwise). Waits for the first
   * connection like start-up does; resolves to the server's state, or `{ ok: false, error }`.
   */
  addServer(name: string, entry: unknown, options?: AddServerOptions): Promise<AddServerResult>;
  /** Remove a server added with `addServer`; false when there is none by that name. */
  removeServer(name: string): Promise<boolean>;
}

function pluginSpecs(options: ResolvedExecutorOptions, config: ProjectConfig, mcp: ExecutorPlugin): PluginSpec[] {
  const specs: PluginSpec[] = [{ plugin: scriptPlugin(), entries: config.entries.script }];
  // One plugin object for the executor's life: it keeps the connections a reload does not change.
  specs.push({ plugin: mcp, entries: config.entries.mcp });
  if (options.onHumanInput) specs.push({ plugin: humanInputPlugin(options.onHumanInput), entries: [] });
  for (const plugin of options.plugins) specs.push({ plugin, entries: [] });
  // The resolved settings are the plugin's one entry: a change to them restarts its runtimes.
  const code = resolveCodeExecutionOptions(config.codeExecution, options.codeExecution);
  if (code.enabled) specs.push({ plugin: codePlugin(), entries: [code] });
  return specs;
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
  const resolved = resolveExecutorOptions(options);
  const { logger } = resolved;
  const loadConfig = () => loadProjectConfig({ root: resolved.root, toolsConfig: resolved.toolsConfig, mcpConfig: resolved.mcpConfig });
  let config = await loadConfig();
  for (const warning of config.warnings) logger.warn(formatConfigIssue(warning));

  const emitter = createEmitter<ExecutorEvents>((event, error) => logger.warn(`A "${event}" listener threw: ${(error as Error)?.message ?? String(error)}`));
  const log = resolved.log === false ? undefined : createExecutionLog({ ...resolved.log, logger });
  const inflight = new Set<AbortController>();
  let closed = false;
  let closing: Promise<void> | undefined;
  let watcher: ConfigWatcher | undefined;

  const registryListeners = new Set<() => void>();
  /** The running code plugin, when code execution is enabled. */
  const codeInstance = () => host.instance(CODE_PLUGIN_NAME) as CodePluginInstance | undefined;
  const mcp = mcpPlugin({ startupTimeoutMs: resolved.mcp.startupTimeoutMs, ...(resolved.onElicitation ? { onElicitation: resolved.onElicitation } : {}) });
  const host = createPluginHost({
    logger,
    context: {
      root: resolved.root,
      logger,
      callTool: (name, args, callOptions) => callTool(name, args, callOptions),
      listTools: () => [...host.tools.values()].map((tool) => tool.definition),
      onToolsChanged(listener) {
        registryListeners.add(listener);
        return () => registryListeners.delete(listener);
      },
      emit: (event, payload) => emitter.emit(event as keyof ExecutorEvents, payload as never),
    },
    onRegistryChanged(reason) {
      for (const listener of [...registryListeners]) {
        try {
          listener();
        } catch (error) {
          logger.warn(`A tools-changed listener threw: ${(error as Error)?.message ?? String(error)}`);
        }
      }
      if (reason === "plugin") emitter.emit("tools:changed", { tools: [...host.tools.keys()] });
    },
  });
  const runCall = createCallPipeline({
    host,
    scheduler: createScheduler({ maxConcurrency: resolved.maxConcurrency, maxQueue: resolved.maxQueue }),
    emitter,
    log,
    defaultTimeoutMs: resolved.defaultTimeoutMs,
    isClosed: () => closed,
    inflight,
    isSelfScheduled: (tool) => tool.owner.name === CODE_PLUGIN_NAME,
    shapeLogRecord: (record) => (record.tool === CODE_EXECUTION_TOOL_NAME ? codeInstance()?.shapeLogRecord(record) ?? record : record),
    missingToolHint: (name) =>
      name === CODE_EXECUTION_TOOL_NAME
        ? 'Code execution is disabled: "code_execution" is offered only when enabled, with createExecutor({ codeExecution: { enabled: true } }) or "codeExecution": { "enabled": true } in tools.json'
        : undefined,
  });
  // Calls not yet settled, so close() can wait for their log records before closing the log.
  const unsettled = new Set<Promise<unknown>>();
  const callTool: typeof runCall = (name, args, callOptions) => {
    const call = runCall(name, args, callOptions);
    unsettled.add(call);
    void call.catch(() => undefined).finally(() => unsettled.delete(call));
    return call;
  };

  try {
    await host.start(pluginSpecs(resolved, config, mcp));
  } catch (error) {
    await log?.close();
    throw error;
  }

  // Reloads run one at a time; a change that lands during a reload triggers one more.
  let reloading: Promise<ReloadResult> | undefined;
  let again = false;
  const reloadOnce = async (): Promise<ReloadResult> => {
    try {
      const next = await loadConfig();
      const restarted = await host.apply(pluginSpecs(resolved, next, mcp));
      config = next;
      emitter.emit("config:reloaded", { restarted, tools: [...host.tools.keys()], warnings: next.warnings });
      return { ok: true, restarted };
    } catch (error) {
      if (!isToolexecError(error)) throw error;
      if (!emitter.hasListeners("config:error")) logger.warn(`Config change rejected, keeping the last good config:\n${error.message}`);
      emitter.emit("config:error", { error, message: error.message });
      return { ok: false, error };
    }
  };
  const reload = (): Promise<ReloadResult> => {
    if (closed) return Promise.reject(new ToolexecError("EXECUTOR_CLOSED", "Cannot reload: the executor is closed"));
    if (reloading) {
      again = true;
      return reloading;
    }
    reloading = (async () => {
      let result: ReloadResult;
      do {
        again = false;
        result = await reloadOnce();
      } while (again && !closed);
      reloading = undefined;
      return result;
    })();
    return reloading;
  };

  /** The running `mcp` plugin, for the executor's MCP methods. */
  const mcpInstance = (action: string) => {
    if (closed) throw new ToolexecError("EXECUTOR_CLOSED", `Cannot ${action}: the executor is closed`);
    return asMcpInstance(host.instance("mcp"));
  };

  const executor: Executor = {
    root: resolved.root,
    get warnings() {
      return config.warnings;
    },
    async listTools() {
      if (closed) throw new ToolexecError("EXECUTOR_CLOSED", "Cannot list tools: the executor is closed");
      // Under codeExecution.listOnlyCodeExecution the code plugin hides the tools code reaches.
      const code = codeInstance();
      const listed = code ? [...host.tools.values()].filter(({ definition }) => code.isListed(definition.name)) : [...host.tools.values()];
      return listed.map(({ definition }) => ({
        name: definition.name,
        description: definition.description,
        inputSchema: definition.inputSchema,
        ...(definition.outputSchema === undefined ? {} : { outputSchema: definition.outputSchema }),
        ...(definition.annotations === undefined || Object.keys(definition.annotations).length === 0 ? {} : { annotations: definition.annotations }),
      }));
    },
    callTool,
    on: (event, listener) => emitter.on(event, listener),
    reload,
    async executeCode(request, requestOptions = {}) {
      const args = request === null || typeof request !== "object" ? request : { ...request };
      return toCodeResult(await callTool(CODE_EXECUTION_TOOL_NAME, args, requestOptions.signal ? { signal: requestOptions.signal } : {}));
    },
    servers: () => mcpInstance("list servers").servers(),
    listResources: async (requestOptions) => mcpInstance("list resources").listResources(requestOptions),
    readResource: async (server, uri, requestOptions) => mcpInstance("read a resource").readResource(server, uri, requestOptions),
    addServer: async (name, entry, addOptions) => mcpInstance("add a server").addServer(name, entry, addOptions),
    removeServer: async (name) => mcpInstance("remove a server").removeServer(name),
    close() {
      closing ??= (async () => {
        closed = true;
        await watcher?.close();
        const reason = new ToolexecError("EXECUTOR_CLOSED", "The executor was closed while the call was under way");
        for (const controller of inflight) controller.abort(reason);
        await reloading?.catch(() => undefined);
        await host.close();
        await Promise.allSettled([...unsettled]);
        await log?.close();
        emitter.clear();
      })();
      return closing;
    },
  };

  if (resolved.watch) {
    try {
      watcher = await watchConfig({
        root: resolved.root,
        files: config.files,
        debounceMs: resolved.reloadDebounceMs,
        logger,
        onChange: () => void reload().catch((error: unknown) => logger.error(`Reload failed: ${(error as Error).message}`)),
      });
    } catch (error) {
      await executor.close();
      throw error;
    }
  }
  return executor;
}
