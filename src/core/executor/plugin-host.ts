/**
 * Runs the plugins and keeps the tool registry. On reload only plugins whose entries or
 * configuration changed are restarted: the new instance starts, the registry swaps atomically, and the old instance closes
 * once the calls that leased its tools have finished on it.
 */
import { ToolexecError } from "../errors/toolexec-error.js";
import type { ExecutorPlugin, Logger, PluginContext, PluginInstance } from "../plugin-contract.js";
import { buildRegistry, type RegisteredTool } from "./tool-registry.js";
import { collectUnavailableTools, refuseUnavailableTools, uncheckedTools, type PluginUnavailableTool } from "./unavailable-tools.js";

export type { RegisteredTool } from "./tool-registry.js";

/** A plugin to run with the config entries it owns, and its resolved configuration when it declares one. */
export interface PluginSpec {
  plugin: ExecutorPlugin<never>;
  entries: unknown[];
  /** Handed to the plugin as `context.config`; present when the plugin declares `config`. */
  config?: { value: unknown };
}

export interface RunningPlugin {
  /** The plugin object it was started from: the key hosts use to reach its API. */
  plugin: ExecutorPlugin<never>;
  name: string;
  instance: PluginInstance;
  /**
   * Its entries and configuration as text, to tell on reload whether they changed. Made at the first
   * reload, not at start: 10,000 entries take ~20 ms to write out, and config entries are never mutated.
   */
  entriesKey: () => string;
  /** Calls that leased one of its tools and have not ended; a retired instance closes at zero. */
  leases: number;
}

export interface PluginHost {
  /** The current registry; replaced whole, never mutated, so a lookup sees one consistent snapshot. */
  readonly tools: ReadonlyMap<string, RegisteredTool>;
  /** The tools the config names that cannot be served: the plugins' own `unavailableTools`. */
  unavailableTools(): PluginUnavailableTool[];
  /** Start every plugin. On failure, closes what started and throws. */
  start(specs: PluginSpec[]): Promise<void>;
  /** Restart the plugins whose entries or configuration changed; returns their names. Throws and keeps the old set on failure. */
  apply(specs: PluginSpec[]): Promise<string[]>;
  /** Take the tool named `name` for a call; its plugin instance is not closed before `release(tool)`. */
  lease(name: string): RegisteredTool | undefined;
  /** End a lease taken with `lease`; call exactly once per lease. */
  release(tool: RegisteredTool): void;
  /** The running instance started from `plugin`, if any. */
  instanceOf<Api>(plugin: ExecutorPlugin<never, Api>): PluginInstance<Api> | undefined;
  /** The running instances, in start order. */
  instances(): PluginInstance[];
  /** Strings no log may show, from every running plugin. */
  secrets(): string[];
  close(): Promise<void>;
}

export interface PluginHostOptions {
  context: PluginContext;
  logger: Logger;
  /**
   * Any unavailable tool, or tool whose schema cannot be used for validation, fails a start or a
   * reload with `CONFIG_INVALID` naming it, rather than leaving it out (or unchecked).
   */
  strict?: boolean;
  /** After the registry changed, by reload or by a plugin's own notice; `previous` is the registry before. */
  onRegistryChanged(reason: "reload" | "plugin", previous: ReadonlyMap<string, RegisteredTool>): void;
}

/** What a restart decision compares: the entries and the configuration, as JSON. */
const keyOf = (spec: PluginSpec) => JSON.stringify(spec.config === undefined ? spec.entries : [spec.entries, spec.config.value ?? null]);

function lazy<Value>(make: () => Value): () => Value {
  let made = false;
  let value: Value;
  return () => {
    if (!made) {
      value = make();
      made = true;
    }
    return value;
  };
}

/** Start one plugin; a plain error becomes `PLUGIN_FAILED` naming the plugin. */
async function startInstance(spec: PluginSpec, context: PluginContext): Promise<PluginInstance> {
  try {
    const withConfig = spec.config === undefined ? context : { ...context, config: spec.config.value };
    return await spec.plugin.start(spec.entries as never[], withConfig);
  } catch (error) {
    if (error instanceof ToolexecError) throw error;
    throw new ToolexecError("PLUGIN_FAILED", `Plugin "${spec.plugin.name}" failed to start: ${(error as Error)?.message ?? String(error)}`, { cause: error });
  }
}

/** Start one plugin and follow its own tool changes (until it closes). */
async function startRunning(spec: PluginSpec, context: PluginContext, closer: InstanceCloser, onToolsChanged: (plugin: RunningPlugin) => void): Promise<RunningPlugin> {
  const plugin: RunningPlugin = { plugin: spec.plugin, name: spec.plugin.name, instance: await startInstance(spec, context), entriesKey: lazy(() => keyOf(spec)), leases: 0 };
  const unsubscribe = plugin.instance.onToolsChanged?.(() => onToolsChanged(plugin));
  if (unsubscribe) closer.onClose(plugin, unsubscribe);
  return plugin;
}

type InstanceCloser = ReturnType<typeof createInstanceCloser>;

/**
 * The registry of `next` (`strict`: name conflicts throw); `refuseUnavailable` (the executor's
 * `strict` option) throws `CONFIG_INVALID` when any tool is unavailable or has a schema that cannot be used.
 */
function buildChecked(next: RunningPlugin[], previous: ReadonlyMap<string, RegisteredTool>, logger: Logger, rules: { strict: boolean; refuseUnavailable: boolean }): Map<string, RegisteredTool> {
  const tools = buildRegistry(next, previous, rules.strict, logger);
  if (rules.refuseUnavailable) refuseUnavailableTools(collectUnavailableTools(next), uncheckedTools(tools));
  return tools;
}

/** Closes instances: a retired one once its last lease ends; `closeAll` also waits for the closes under way. */
function createInstanceCloser(logger: Logger) {
  const retired = new Set<RunningPlugin>();
  const unsubscribes = new Map<RunningPlugin, () => void>();
  const closing = new Set<Promise<void>>();

  const close = (plugin: RunningPlugin): Promise<void> => {
    retired.delete(plugin);
    const done = (async () => {
      unsubscribes.get(plugin)?.();
      unsubscribes.delete(plugin);
      try {
        await plugin.instance.close();
      } catch (error) {
        logger.warn(`Plugin "${plugin.name}" failed to close: ${(error as Error).message}`);
      }
    })();
    closing.add(done);
    void done.finally(() => closing.delete(done));
    return done;
  };

  return {
    close,
    /** `unsubscribe` (from the instance's tool changes) is called when it closes. */
    onClose: (plugin: RunningPlugin, unsubscribe: () => void) => void unsubscribes.set(plugin, unsubscribe),
    isRetired: (plugin: RunningPlugin) => retired.has(plugin),
    retire(plugin: RunningPlugin) {
      retired.add(plugin);
      if (plugin.leases === 0) void close(plugin);
    },
    async closeAll(running: RunningPlugin[]) {
      await Promise.all([...running, ...retired].map(close));
      await Promise.all([...closing]);
    },
  };
}

/**
 * Start the plugins of `specs` whose entries changed (those of `reuse` with the same entries run on)
 * and build their registry; on any failure close the ones started and rethrow.
 */
async function startChanged(
  specs: PluginSpec[],
  reuse: Map<ExecutorPlugin<never>, RunningPlugin>,
  steps: { startOne(spec: PluginSpec): Promise<RunningPlugin>; build(plugins: RunningPlugin[]): Map<string, RegisteredTool>; close(plugin: RunningPlugin): Promise<void> },
) {
  const started: RunningPlugin[] = [];
  const next: RunningPlugin[] = [];
  try {
    for (const spec of specs) {
      const current = reuse.get(spec.plugin);
      if (current && current.entriesKey() === keyOf(spec)) {
        next.push(current);
      } else {
        const fresh = await steps.startOne(spec);
        started.push(fresh);
        next.push(fresh);
      }
    }
    return { next, started, registry: steps.build(next) };
  } catch (error) {
    await Promise.all(started.map(steps.close));
    throw error;
  }
}

export function createPluginHost(options: PluginHostOptions): PluginHost {
  let running: RunningPlugin[] = [];
  let tools: ReadonlyMap<string, RegisteredTool> = new Map();
  let closed = false;
  const closer = createInstanceCloser(options.logger);

  /** A running plugin's own notice that its tools changed: the registry is rebuilt, never refused (nothing to fall back to). */
  const onPluginToolsChanged = (plugin: RunningPlugin) => {
    if (closer.isRetired(plugin) || closed || !running.includes(plugin)) return;
    const previous = tools;
    tools = buildChecked(running, previous, options.logger, { strict: false, refuseUnavailable: false });
    options.onRegistryChanged("plugin", previous);
  };
  const startOne = (spec: PluginSpec) => startRunning(spec, options.context, closer, onPluginToolsChanged);
  const build = (next: RunningPlugin[]) => buildChecked(next, tools, options.logger, { strict: true, refuseUnavailable: options.strict === true });
  const startAll = (specs: PluginSpec[], reuse: Map<ExecutorPlugin<never>, RunningPlugin>) => startChanged(specs, reuse, { startOne, build, close: closer.close });

  return {
    get tools() {
      return tools;
    },
    unavailableTools: () => collectUnavailableTools(running),
    async start(specs) {
      const { next, registry } = await startAll(specs, new Map());
      running = next;
      tools = registry;
    },
    async apply(specs) {
      const { next, started, registry } = await startAll(specs, new Map(running.map((plugin) => [plugin.plugin, plugin])));
      const replaced = running.filter((plugin) => !next.includes(plugin));
      const previous = tools;
      running = next;
      tools = registry;
      for (const plugin of replaced) closer.retire(plugin);
      options.onRegistryChanged("reload", previous);
      return started.map((plugin) => plugin.name);
    },
    lease(name) {
      const tool = tools.get(name);
      if (tool) tool.owner.leases++;
      return tool;
    },
    release(tool) {
      if (--tool.owner.leases === 0 && closer.isRetired(tool.owner)) void closer.close(tool.owner);
    },
    instanceOf: <Api>(plugin: ExecutorPlugin<never, Api>) => running.find((candidate) => candidate.plugin === plugin)?.instance as PluginInstance<Api> | undefined,
    instances: () => running.map((plugin) => plugin.instance),
    secrets: () => running.flatMap((plugin) => [...(plugin.instance.secrets?.() ?? [])]),
    async close() {
      closed = true;
      const all = running;
      running = [];
      tools = new Map();
      await closer.closeAll(all);
    },
  };
}
