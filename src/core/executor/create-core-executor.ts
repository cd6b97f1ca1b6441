/**
 * The core executor: loads the project's config, runs the plugins it is given and serves every
 * call through one pipeline. It knows no plugin: the composition root (`src/create-executor.ts`)
 * says which plugins run for a config.
 */
import type { OwnedSection } from "../config/config-sections.js";
import { loadConfigFiles, type ProjectConfig } from "../config/load-project-config.js";
import type { RegistryChange, RegistrySnapshot, RegistryWriteOptions } from "../registry/tools-config-writer.js";
import { formatConfigIssue } from "../errors/config-error.js";
import { ToolexecError } from "../errors/toolexec-error.js";
import { createEmitter, type Emitter } from "../events.js";
import { createExecutionLog, type ExecutionLog } from "../log/execution-log.js";
import { createScheduler } from "../schedule/scheduler.js";
import { DEFAULT_LOG_MAX_VALUE_BYTES } from "../log/execution-log.js";
import { DEFAULT_REDACT_KEYS } from "../log/redact.js";
import { createCallTelemetry, type CallTelemetry } from "../telemetry/call-telemetry.js";
import { createAttributeScrubber } from "../telemetry/scrub-attribute.js";
import { isCapturingContent } from "../telemetry/tracing-enabled.js";
import { createCallPipeline, type CallPipeline } from "./call-pipeline.js";
import { watchConfig, type ConfigWatcher } from "./config-watcher.js";
import type { CallerAccess } from "../caller-info.js";
import type { ConfigStatus, CoreExecutor, ToolInfo } from "./core-executor.js";
import type { ExecutorEvents } from "./executor-events.js";
import type { ResolvedExecutorOptions } from "./executor-options.js";
import { attachSections } from "./attach-sections.js";
import { createPluginHost, type PluginHost, type PluginSpec } from "./plugin-host.js";
import { diffRegistry, isEmptyDiff } from "./registry-diff.js";
import { createOwnWrites, type OwnWrites } from "./own-writes.js";
import { createRegistryAccess, type RegistryAccess } from "./registry-access.js";
import { createReloader, type Reloader, type ReloadResult } from "./reloader.js";
import { holdStartupEvents, type StartupEvents } from "./startup-events.js";
import { offerEventListening } from "./event-listening.js";
import { DEFAULT_RESULT_MAX_CHARS } from "../results/result-budget.js";
import type { ResultStore } from "../results/result-store.js";
import { toDraft2020Schema } from "../schema/to-draft-2020-schema.js";

export type { ReloadResult, RegistryChange, RegistrySnapshot, RegistryWriteOptions };
export type { ConfigStatus, CoreExecutor, ToolInfo } from "./core-executor.js";

export interface CoreExecutorSetup {
  options: ResolvedExecutorOptions;
  /** The plugins to run for a config, with the entries each owns; called at start and on every reload. Each gets its section as `context.config`. */
  plugins(config: ProjectConfig): PluginSpec[];
  /** The sections of configuration the plugins own (`collectSections`), read at start and at every reload. */
  sections: readonly OwnedSection[];
  /** Why a tool name is missing when it is known but switched off (e.g. `code_execution` when disabled). */
  unavailableToolHint?(name: string): string | undefined;
  /** Where bounded calls keep what they cut (the composition root hands the same store to `read_result`); emptied on close. */
  resultStore: ResultStore;
}

/** The config in force and how it came to be: replaced by each reload that loads. */
interface ConfigState {
  config: ProjectConfig;
  loadedAt: number;
  /** The last rejected change, kept until a change loads. */
  lastError: ConfigStatus["lastError"];
}

/** The running pieces of one executor, as its steps share them. */
interface ExecutorParts {
  setup: CoreExecutorSetup;
  state: ConfigState;
  emitter: Emitter<ExecutorEvents>;
  startup: StartupEvents;
  log: ExecutionLog | undefined;
  host: PluginHost;
  pipeline: CallPipeline;
}

/** Where the executor is in its life: `watcher` once it watches, `closing` once `close()` began. */
interface Lifecycle {
  closed: boolean;
  closing?: Promise<void>;
  watcher?: ConfigWatcher;
}

export async function createCoreExecutor(setup: CoreExecutorSetup): Promise<CoreExecutor> {
  const { options: resolved } = setup;
  const { logger } = resolved;
  const loadConfig = () => loadConfigFiles({ root: resolved.root, toolsConfig: resolved.toolsConfig, sections: setup.sections });
  const state: ConfigState = { config: await loadConfig(), loadedAt: Date.now(), lastError: undefined };
  for (const warning of state.config.warnings) logger.warn(formatConfigIssue(warning));

  const emitter = createEmitter<ExecutorEvents>((event, error) => logger.warn(`A "${event}" listener threw: ${(error as Error)?.message ?? String(error)}`));
  const startup = holdStartupEvents(emitter);
  const log = resolved.log === false ? undefined : createExecutionLog({ ...resolved.log, logger });
  const projectMaxChars = () => resolved.results.maxChars ?? state.config.results?.maxChars ?? DEFAULT_RESULT_MAX_CHARS;
  const { host, pipeline } = createHostAndPipeline(setup, startup, log, projectMaxChars);
  try {
    await host.start(pluginSpecs(setup, state.config));
  } catch (error) {
    await log?.close();
    throw error;
  }

  const parts: ExecutorParts = { setup, state, emitter, startup, log, host, pipeline };
  const lifecycle: Lifecycle = { closed: false };
  const reloader = createConfigReloader(parts, loadConfig, () => lifecycle.closed);
  const ensureOpen = (action: string) => {
    if (lifecycle.closed) throw new ToolexecError("EXECUTOR_CLOSED", `Cannot ${action}: the executor is closed`);
  };
  const ownWrites = createOwnWrites();
  const registry = createRegistryAccess({ root: resolved.root, toolsConfig: resolved.toolsConfig, sections: setup.sections, host, config: () => state.config, reloader, ownWrites, logger, ensureOpen });
  const executor = assembleExecutor(parts, { reloader, registry, ensureOpen, close: () => (lifecycle.closing ??= closeExecutor(parts, lifecycle, reloader)) });

  if (resolved.watch) {
    try {
      lifecycle.watcher = await watchForReload(resolved, state.config.files, ownWrites, reloader, () => lifecycle.closed);
    } catch (error) {
      await executor.close();
      throw error;
    }
  }
  startup.release();
  return executor;
}

/** The plugin host and the call pipeline, each using the other: plugins call tools through the pipeline, which runs the host's tools. */
function createHostAndPipeline(setup: CoreExecutorSetup, startup: StartupEvents, log: ExecutionLog | undefined, maxChars: () => number): { host: PluginHost; pipeline: CallPipeline } {
  const { options: resolved } = setup;
  const { logger } = resolved;
  const { emit } = startup;
  const registryListeners = new Set<() => void>();
  const host = createPluginHost({
    logger,
    strict: resolved.strict,
    context: {
      root: resolved.root,
      logger,
      callTool: (name, args, callOptions) => pipeline.callTool(name, args, callOptions),
      listTools: () => [...host.tools.values()].map((tool) => tool.definition),
      explainMissingTool: (name) => pipeline.explainMissing(name),
      callChain: (executionId) => pipeline.callChain(executionId),
      onToolsChanged(listener) {
        registryListeners.add(listener);
        return () => registryListeners.delete(listener);
      },
      // The built-in plugins skip building payloads nobody hears (event-listening.ts).
      emit: offerEventListening((event, payload) => emit(event, payload as never), (event) => startup.events.hasListeners(event as keyof ExecutorEvents)),
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
  const scheduler = createScheduler({ maxConcurrency: resolved.maxConcurrency, maxQueue: resolved.maxQueue });
  const pipeline = createCallPipeline({
    host,
    scheduler,
    telemetry: createTelemetry(resolved, host, () => ({ queued: scheduler.queued, underWay: pipeline.underWay })),
    emitter: startup.events,
    log,
    defaultTimeoutMs: resolved.defaultTimeoutMs,
    results: { store: setup.resultStore, maxChars },
    ...(setup.unavailableToolHint ? { unavailableToolHint: setup.unavailableToolHint } : {}),
  });
  return { host, pipeline };
}

/** Spans and metrics of the calls; arguments and results as attributes only when the environment opts in. */
function createTelemetry(resolved: ResolvedExecutorOptions, host: PluginHost, counts: () => { queued: number; underWay: number }): CallTelemetry {
  const log = resolved.log === false ? undefined : resolved.log;
  return createCallTelemetry(
    {
      captureContent: isCapturingContent(),
      scrub: createAttributeScrubber(log?.redactKeys ?? DEFAULT_REDACT_KEYS, log?.maxValueBytes ?? DEFAULT_LOG_MAX_VALUE_BYTES, () => host.secrets()),
    },
    {
      queued: () => counts().queued,
      running: () => Math.max(0, counts().underWay - counts().queued),
    },
  );
}

/** Reloads one at a time: a config that loads replaces the one in force, a rejected one is kept as `lastError` and reported. */
function createConfigReloader(parts: ExecutorParts, loadConfig: () => Promise<ProjectConfig>, isClosed: () => boolean): Reloader {
  const { setup, state, host, startup, emitter } = parts;
  return createReloader({
    isClosed,
    async apply() {
      const next = await loadConfig();
      const restarted = await host.apply(pluginSpecs(setup, next));
      state.config = next;
      state.loadedAt = Date.now();
      state.lastError = undefined;
      startup.emit("config:reloaded", { restarted, tools: [...host.tools.keys()], warnings: next.warnings });
      return restarted;
    },
    onRejected(error) {
      state.lastError = { code: error.code, message: error.message, at: Date.now() };
      if (!emitter.hasListeners("config:error")) setup.options.logger.warn(`Config change rejected, keeping the last good config:\n${error.message}`);
      startup.emit("config:error", { error, message: error.message });
    },
  });
}

/** The executor object over its running parts. */
function assembleExecutor(
  parts: ExecutorParts,
  controls: { reloader: Reloader; registry: RegistryAccess; ensureOpen(action: string): void; close(): Promise<void> },
): CoreExecutor {
  const { state, host, pipeline, emitter } = parts;
  const { registry, ensureOpen } = controls;
  return {
    root: parts.setup.options.root,
    logDir: parts.setup.options.log === false ? false : parts.setup.options.log.dir,
    get warnings() {
      return state.config.warnings;
    },
    async listTools(options) {
      ensureOpen("list tools");
      return listToolInfos(host, options?.access);
    },
    callTool: pipeline.callTool,
    on: (event, listener) => emitter.on(event, listener),
    reload: controls.reloader.reload,
    configStatus() {
      ensureOpen("read the config status");
      const { config, loadedAt, lastError } = state;
      const unavailableTools = host.unavailableTools();
      return { state: lastError ? "stale" : "ok", files: [...config.files], loadedAt, warnings: config.warnings, unavailableTools, ...(lastError ? { lastError: { ...lastError } } : {}) };
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
    close: controls.close,
  };
}

/** Every tool as a host sees it (schemas in draft 2020-12), less those a plugin's listing policy hides from models; with `access`, its view. */
function listToolInfos(host: PluginHost, access: CallerAccess | undefined): ToolInfo[] {
  const policies = host.instances().filter((instance) => instance.isListed);
  const tools = [...host.tools.values()].map(({ definition }) => definition);
  const listed = policies.length === 0 ? tools : tools.filter((definition) => policies.every((instance) => instance.isListed!(definition)));
  const infos = listed.map((definition) => ({
    name: definition.name,
    description: access !== undefined && definition.describeFor ? definition.describeFor(access) : definition.description,
    // Shown in draft 2020-12 whatever the dialect; the registry validates with the original.
    inputSchema: toDraft2020Schema(definition.inputSchema),
    ...(definition.outputSchema === undefined ? {} : { outputSchema: toDraft2020Schema(definition.outputSchema) }),
    ...(definition.annotations === undefined || Object.keys(definition.annotations).length === 0 ? {} : { annotations: definition.annotations }),
  }));
  return access === undefined ? infos : access.view(infos);
}

/** Stop the watcher, abort and drain the calls, let a reload finish, close the plugins, then the log. */
async function closeExecutor(parts: ExecutorParts, lifecycle: Lifecycle, reloader: Reloader): Promise<void> {
  lifecycle.closed = true;
  parts.startup.drop();
  await lifecycle.watcher?.close();
  const drained = parts.pipeline.closeAll(new ToolexecError("EXECUTOR_CLOSED", "The executor was closed while the call was under way"));
  await reloader.settled();
  await parts.host.close();
  await drained;
  await parts.log?.close();
  parts.setup.resultStore.clear();
  parts.pipeline.telemetry?.close();
  parts.emitter.clear();
}

/** A change on disk reloads, unless it is the executor's own registry write (already live). */
function watchForReload(resolved: ResolvedExecutorOptions, files: string[], ownWrites: OwnWrites, reloader: Reloader, isClosed: () => boolean): Promise<ConfigWatcher> {
  const { logger } = resolved;
  return watchConfig({
    root: resolved.root,
    files,
    debounceMs: resolved.reloadDebounceMs,
    logger,
    onChange: (paths) =>
      void ownWrites
        .absorbs(paths)
        .then((absorbed) => {
          if (absorbed) logger.debug("Config change skipped: it is the executor's own registry write, already live", { paths });
          else if (!isClosed()) return reloader.reload();
          return undefined;
        })
        .catch((error: unknown) => logger.error(`Reload failed: ${(error as Error).message}`)),
  });
}

/** The plugins to run for `config`, each with its own section of it attached. */
function pluginSpecs(setup: CoreExecutorSetup, config: ProjectConfig): PluginSpec[] {
  return attachSections(setup.plugins(config), config);
}
