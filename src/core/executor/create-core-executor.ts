/**
 * The core executor: loads the project's config, runs the plugins it is given and serves every
 * call through one pipeline. It knows no plugin: the composition root (`src/create-executor.ts`)
 * says which plugins run for a config.
 */
import type { OwnedSection } from "../config/config-sections.js";
import { loadConfigFiles, type ProjectConfig } from "../config/load-project-config.js";
import { createToolsConfigWriter, type RegistryChange, type RegistrySnapshot, type RegistryWriteOptions, type ToolsConfigWriter } from "../registry/tools-config-writer.js";
import { formatConfigIssue, type ConfigIssue } from "../errors/config-error.js";
import { ToolexecError } from "../errors/toolexec-error.js";
import { createEmitter, type Unsubscribe } from "../events.js";
import { createExecutionLog } from "../log/execution-log.js";
import type { CallToolOptions, ExecutorPlugin, JsonSchema, ToolAnnotations } from "../plugin-contract.js";
import { createScheduler } from "../schedule/scheduler.js";
import type { ToolResult } from "../tool-result.js";
import { createCallPipeline } from "./call-pipeline.js";
import { watchConfig, type ConfigWatcher } from "./config-watcher.js";
import type { ExecutorEvents } from "./executor-events.js";
import type { ResolvedExecutorOptions } from "./executor-options.js";
import { attachSections } from "./attach-sections.js";
import { createPluginHost, type PluginSpec } from "./plugin-host.js";
import { diffRegistry, isEmptyDiff } from "./registry-diff.js";
import { createOwnWrites } from "./own-writes.js";
import { createReloader, type ReloadResult } from "./reloader.js";

export type { ReloadResult, RegistryChange, RegistrySnapshot, RegistryWriteOptions };

/** The config in force, and the last problem with a change to it. */
export interface ConfigStatus {
  /** `ok`: the files on disk are what runs; `stale`: the last change was rejected and the last good config still runs. */
  state: "ok" | "stale";
  /** Absolute paths of the config files in use. */
  files: string[];
  /** Epoch ms of the last successful load (start-up or reload). */
  loadedAt: number;
  /** Non-fatal problems of the config in force. */
  warnings: readonly ConfigIssue[];
  /** The last rejected change, kept until a change loads; `message` is what `config:error` said. */
  lastError?: { code: string; message: string; at: number };
}

/** A tool as an LLM host sees it. */
export interface ToolInfo {
  name: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  annotations?: ToolAnnotations;
}

/** What the core executor offers; the public `Executor` adds the built-in plugins' APIs. */
export interface CoreExecutor {
  /** The project folder, absolute. */
  readonly root: string;
  /** Non-fatal config problems of the config in force (e.g. a script that does not exist yet). */
  readonly warnings: readonly ConfigIssue[];
  /**
   * Every callable tool with its JSON Schemas, less those a plugin's listing policy hides from
   * models (`codeExecution.listOnlyCodeExecution`); hidden tools stay callable.
   */
  listTools(): Promise<ToolInfo[]>;
  /** Run a tool. Resolves to a result envelope; throws only after `close()` (`EXECUTOR_CLOSED`). */
  callTool(name: string, args?: unknown, options?: CallToolOptions): Promise<ToolResult>;
  /** Subscribe to an event; returns the unsubscribe function. */
  on<Name extends keyof ExecutorEvents>(event: Name, listener: (payload: ExecutorEvents[Name]) => void): Unsubscribe;
  /** Re-read the config now (what the watcher does on a change); keeps the last good config on failure. */
  reload(): Promise<ReloadResult>;
  /** The config in force and the last rejected change, e.g. for a status page after a bad edit. */
  configStatus(): ConfigStatus;
  /**
   * The API of a running plugin (its `api` capability), typed by the plugin; `undefined` when that
   * plugin is not running. Throws `EXECUTOR_CLOSED` after `close()`.
   *
   * @example
   * const stats = executor.pluginApi(statsPlugin); // the same object passed in `plugins`
   */
  pluginApi<Api>(plugin: ExecutorPlugin<never, Api>): Api | undefined;
  /**
   * tools.json's entries as written, each with its tag, and the file's tag: the tags to pass as
   * `ifMatch` to the writes below. Throws `CONFIG_MISSING` when the executor runs without tools.json.
   */
  readRegistry(): Promise<RegistrySnapshot>;
  /**
   * Add a tool to tools.json (and write its script under tools/ when `options.script` is given).
   * Every registry write runs in the project's one write queue, is validated like tools.json at
   * load before anything is written (`INVALID_INPUT`), is written atomically keeping the rest of the
   * file as it was, and is live when the promise resolves. `CONFLICT`: the name exists, or
   * `options.ifMatch` (the file's tag) no longer matches. See docs/registry-api.md.
   *
   * @example
   * await executor.registerTool(
   *   { name: "greet", description: "Say hello", runtime: "shell", script: "greet.sh", inputSchema: { type: "object" } },
   *   { script: 'echo \'{"hello": "world"}\'\n' },
   * );
   */
  registerTool(entry: unknown, options?: RegistryWriteOptions): Promise<RegistryChange>;
  /** Replace a tools.json tool's entry whole (`ifMatch`: the entry's tag). `TOOL_NOT_FOUND`, `CONFLICT`, `INVALID_INPUT`. */
  replaceTool(name: string, entry: unknown, options?: RegistryWriteOptions): Promise<RegistryChange>;
  /** Change some keys of a tools.json tool's entry (a JSON merge patch: `null` removes a key). */
  updateTool(name: string, patch: unknown, options?: RegistryWriteOptions): Promise<RegistryChange>;
  /** Remove a tool from tools.json (its script stays). */
  removeTool(name: string, options?: { ifMatch?: string }): Promise<RegistryChange>;
  /** Stop every process, connection, watcher and timer. Idempotent. */
  close(): Promise<void>;
}

export interface CoreExecutorSetup {
  options: ResolvedExecutorOptions;
  /** The plugins to run for a config, with the entries each owns; called at start and on every reload. Each gets its section as `context.config`. */
  plugins(config: ProjectConfig): PluginSpec[];
  /** The sections of configuration the plugins own (`collectSections`), read at start and at every reload. */
  sections: readonly OwnedSection[];
  /** Why a tool name is missing when it is known but switched off (e.g. `code_execution` when disabled). */
  unavailableToolHint?(name: string): string | undefined;
}

export async function createCoreExecutor(setup: CoreExecutorSetup): Promise<CoreExecutor> {
  const { options: resolved } = setup;
  const { logger } = resolved;
  const loadConfig = () => loadConfigFiles({ root: resolved.root, toolsConfig: resolved.toolsConfig, sections: setup.sections });
  const specsFor = (loaded: ProjectConfig) => attachSections(setup.plugins(loaded), loaded);
  let config = await loadConfig();
  let loadedAt = Date.now();
  let lastError: ConfigStatus["lastError"];
  for (const warning of config.warnings) logger.warn(formatConfigIssue(warning));

  const emitter = createEmitter<ExecutorEvents>((event, error) => logger.warn(`A "${event}" listener threw: ${(error as Error)?.message ?? String(error)}`));
  // Events of start-up are held until just after `createExecutor` resolves: a host can only
  // subscribe then, and "server X is unreachable" is what it most wants to hear. They go out at
  // the next event-loop turn, or before any later event, whichever comes first, in order.
  let starting = true;
  let held: Array<() => void> | undefined = [];
  const deliverHeld = () => {
    const pending = held ?? [];
    held = undefined;
    for (const deliver of pending) deliver();
  };
  const emit = <Name extends keyof ExecutorEvents>(event: Name, payload: ExecutorEvents[Name]) => {
    if (starting) held!.push(() => emitter.emit(event, payload));
    else {
      if (held) deliverHeld();
      emitter.emit(event, payload);
    }
  };
  // While start-up events are held, every event counts as listened to: it is delivered later.
  const events = { ...emitter, emit, hasListeners: (event: keyof ExecutorEvents) => held !== undefined || emitter.hasListeners(event) };
  const log = resolved.log === false ? undefined : createExecutionLog({ ...resolved.log, logger });
  let closed = false;
  let closing: Promise<void> | undefined;
  let watcher: ConfigWatcher | undefined;

  const registryListeners = new Set<() => void>();
  const host = createPluginHost({
    logger,
    context: {
      root: resolved.root,
      logger,
      callTool: (name, args, callOptions) => pipeline.callTool(name, args, callOptions),
      listTools: () => [...host.tools.values()].map((tool) => tool.definition),
      explainMissingTool: (name) => pipeline.explainMissing(name),
      onToolsChanged(listener) {
        registryListeners.add(listener);
        return () => registryListeners.delete(listener);
      },
      emit: (event, payload) => emit(event, payload as never),
      ...(log === undefined ? {} : { writeLog: (record: Record<string, unknown>) => log.write({ time: new Date().toISOString(), ...record }) }),
    },
    onRegistryChanged(_reason, previous) {
      for (const listener of [...registryListeners]) {
        try {
          listener();
        } catch (error) {
          logger.warn(`A tools-changed listener threw: ${(error as Error)?.message ?? String(error)}`);
        }
      }
      const diff = diffRegistry(previous, host.tools);
      if (!isEmptyDiff(diff)) emit("tools:changed", { tools: [...host.tools.keys()], ...diff });
    },
  });
  const pipeline = createCallPipeline({
    host,
    scheduler: createScheduler({ maxConcurrency: resolved.maxConcurrency, maxQueue: resolved.maxQueue }),
    emitter: events,
    log,
    defaultTimeoutMs: resolved.defaultTimeoutMs,
    ...(setup.unavailableToolHint ? { unavailableToolHint: setup.unavailableToolHint } : {}),
  });

  try {
    await host.start(specsFor(config));
  } catch (error) {
    await log?.close();
    throw error;
  }

  const reloader = createReloader({
    isClosed: () => closed,
    async apply() {
      const next = await loadConfig();
      const restarted = await host.apply(specsFor(next));
      config = next;
      loadedAt = Date.now();
      lastError = undefined;
      emit("config:reloaded", { restarted, tools: [...host.tools.keys()], warnings: next.warnings });
      return restarted;
    },
    onRejected(error) {
      lastError = { code: error.code, message: error.message, at: Date.now() };
      if (!emitter.hasListeners("config:error")) logger.warn(`Config change rejected, keeping the last good config:\n${error.message}`);
      emit("config:error", { error, message: error.message });
    },
  });
  const ensureOpen = (action: string) => {
    if (closed) throw new ToolexecError("EXECUTOR_CLOSED", `Cannot ${action}: the executor is closed`);
  };

  const ownWrites = createOwnWrites();
  const toolsConfig = resolved.toolsConfig;
  const inToolsConfig = (name: string) => config.entries.script.some((entry) => entry.name === name) || config.entries.python.some((entry) => entry.name === name);
  const writer: ToolsConfigWriter | undefined =
    toolsConfig === false
      ? undefined
      : createToolsConfigWriter({
          root: resolved.root,
          fileName: toolsConfig,
          sections: setup.sections,
          isNameTaken: (name) => host.tools.has(name) && !inToolsConfig(name),
          onWriting: (files) => ownWrites.expect(files),
          async onWritten() {
            const result = await reloader.reload();
            if (!result.ok) logger.warn(`A registry write was saved, but the config did not reload: ${result.error.message}`);
          },
        });
  const registry = (action: string): ToolsConfigWriter => {
    ensureOpen(action);
    if (!writer) throw new ToolexecError("CONFIG_MISSING", `Cannot ${action}: the executor runs without tools.json (toolsConfig: false)`);
    return writer;
  };

  const executor: CoreExecutor = {
    root: resolved.root,
    get warnings() {
      return config.warnings;
    },
    async listTools() {
      ensureOpen("list tools");
      const policies = host.instances().filter((instance) => instance.isListed);
      const tools = [...host.tools.values()].map(({ definition }) => definition);
      const listed = policies.length === 0 ? tools : tools.filter((definition) => policies.every((instance) => instance.isListed!(definition)));
      return listed.map((definition) => ({
        name: definition.name,
        description: definition.description,
        inputSchema: definition.inputSchema,
        ...(definition.outputSchema === undefined ? {} : { outputSchema: definition.outputSchema }),
        ...(definition.annotations === undefined || Object.keys(definition.annotations).length === 0 ? {} : { annotations: definition.annotations }),
      }));
    },
    callTool: pipeline.callTool,
    on: (event, listener) => emitter.on(event, listener),
    reload: reloader.reload,
    configStatus() {
      ensureOpen("read the config status");
      return { state: lastError ? "stale" : "ok", files: [...config.files], loadedAt, warnings: config.warnings, ...(lastError ? { lastError: { ...lastError } } : {}) };
    },
    pluginApi(plugin) {
      ensureOpen("use a plugin's API");
      return host.instanceOf(plugin)?.api;
    },
    readRegistry: async () => registry("read the registry").read(),
    registerTool: async (entry, writeOptions) => registry("register a tool").create(entry, writeOptions),
    replaceTool: async (name, entry, writeOptions) => registry("replace a tool").replace(name, entry, writeOptions),
    updateTool: async (name, patch, writeOptions) => registry("update a tool").update(name, patch, writeOptions),
    removeTool: async (name, writeOptions) => registry("remove a tool").remove(name, writeOptions),
    close() {
      closing ??= (async () => {
        closed = true;
        held = undefined;
        await watcher?.close();
        const drained = pipeline.closeAll(new ToolexecError("EXECUTOR_CLOSED", "The executor was closed while the call was under way"));
        await reloader.settled();
        await host.close();
        await drained;
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
        onChange: (paths) =>
          void ownWrites
            .absorbs(paths)
            .then((absorbed) => {
              if (absorbed) logger.debug("Config change skipped: it is the executor's own registry write, already live", { paths });
              else if (!closed) return reloader.reload();
              return undefined;
            })
            .catch((error: unknown) => logger.error(`Reload failed: ${(error as Error).message}`)),
      });
    } catch (error) {
      await executor.close();
      throw error;
    }
  }
  starting = false;
  setImmediate(deliverHeld);
  return executor;
}
