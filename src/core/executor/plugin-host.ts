/**
 * Runs the plugins and keeps the tool registry. On reload only plugins whose entries changed are
 * restarted: the new instance starts, the registry swaps atomically, and the old instance closes
 * once its in-flight calls have finished on it.
 */
import { ToolexecError } from "../errors/toolexec-error.js";
import type { ExecutorPlugin, Logger, PluginContext, PluginInstance, ToolDefinition } from "../plugin-contract.js";
import { checkSchema, compileSchema, type CompiledValidator } from "../schema/schema-validator.js";

/** A plugin to run with the config entries it owns. */
export interface PluginSpec {
  plugin: ExecutorPlugin;
  entries: unknown[];
}

export interface RunningPlugin {
  name: string;
  instance: PluginInstance;
  entriesKey: string;
  /** Calls resolved to this instance and not finished yet. */
  active: number;
  retired: boolean;
  unsubscribe: (() => void) | undefined;
}

export interface RegisteredTool {
  definition: ToolDefinition;
  owner: RunningPlugin;
  validateInput: CompiledValidator;
  validateOutput: CompiledValidator | undefined;
}

export interface PluginHost {
  /** The current registry; replaced whole, never mutated, so a lookup sees one consistent snapshot. */
  readonly tools: ReadonlyMap<string, RegisteredTool>;
  /** Start every plugin. On failure, closes what started and throws. */
  start(specs: PluginSpec[]): Promise<void>;
  /** Restart the plugins whose entries changed; returns their names. Throws and keeps the old set on failure. */
  apply(specs: PluginSpec[]): Promise<string[]>;
  /** The running instance of the plugin with that name, if any (for plugin-specific executor methods). */
  instance(name: string): PluginInstance | undefined;
  /** Strings no log may show, from every running plugin. */
  secrets(): string[];
  enter(owner: RunningPlugin): void;
  leave(owner: RunningPlugin): void;
  close(): Promise<void>;
}

export interface PluginHostOptions {
  context: PluginContext;
  logger: Logger;
  /** After the registry changed, by reload or by a plugin's own notice. */
  onRegistryChanged(reason: "reload" | "plugin"): void;
}

const keyOf = (entries: unknown[]) => JSON.stringify(entries);

export function createPluginHost(options: PluginHostOptions): PluginHost {
  let running: RunningPlugin[] = [];
  let tools: ReadonlyMap<string, RegisteredTool> = new Map();
  let closed = false;
  /** Replaced instances still finishing calls, and the closes under way, so `close()` can wait for all. */
  const retired = new Set<RunningPlugin>();
  const closing = new Set<Promise<void>>();

  const closeInstance = (plugin: RunningPlugin): Promise<void> => {
    retired.delete(plugin);
    const done = closeQuietly(plugin);
    closing.add(done);
    void done.finally(() => closing.delete(done));
    return done;
  };

  const closeQuietly = async (plugin: RunningPlugin) => {
    plugin.unsubscribe?.();
    try {
      await plugin.instance.close();
    } catch (error) {
      options.logger.warn(`Plugin "${plugin.name}" failed to close: ${(error as Error).message}`);
    }
  };

  const retire = (plugin: RunningPlugin) => {
    plugin.retired = true;
    retired.add(plugin);
    if (plugin.active === 0) void closeInstance(plugin);
  };

  /** Build a registry; `strict` makes conflicts and bad schemas throw instead of skipping the tool. */
  const buildRegistry = (plugins: RunningPlugin[], strict: boolean) => {
    const registry = new Map<string, RegisteredTool>();
    const previous = tools;
    for (const owner of plugins) {
      for (const definition of owner.instance.listTools()) {
        const clash = registry.get(definition.name);
        if (clash) {
          const message = `Tool name "${definition.name}" is served by both plugin "${clash.owner.name}" and plugin "${owner.name}"; rename one of them`;
          if (strict) throw new ToolexecError("TOOL_NAME_CONFLICT", message, { details: { tool: definition.name, plugins: [clash.owner.name, owner.name] } });
          options.logger.warn(`${message} (keeping the first)`);
          continue;
        }
        const reused = previous.get(definition.name);
        if (reused && reused.definition === definition) {
          registry.set(definition.name, { ...reused, owner });
          continue;
        }
        const problems = [...checkSchema(definition.inputSchema), ...(definition.outputSchema ? checkSchema(definition.outputSchema) : [])];
        if (problems.length > 0) {
          const message = `Tool "${definition.name}" of plugin "${owner.name}" has an invalid JSON Schema: ${problems[0]!.message}`;
          if (strict) throw new ToolexecError("PLUGIN_FAILED", message, { details: { tool: definition.name, problems } });
          options.logger.warn(`${message} (tool skipped)`);
          continue;
        }
        registry.set(definition.name, {
          definition,
          owner,
          validateInput: compileSchema(definition.inputSchema),
          validateOutput: definition.outputSchema ? compileSchema(definition.outputSchema) : undefined,
        });
      }
    }
    return registry;
  };

  const startOne = async (spec: PluginSpec): Promise<RunningPlugin> => {
    let instance: PluginInstance;
    try {
      instance = await spec.plugin.start(spec.entries, options.context);
    } catch (error) {
      if (error instanceof ToolexecError) throw error;
      throw new ToolexecError("PLUGIN_FAILED", `Plugin "${spec.plugin.name}" failed to start: ${(error as Error)?.message ?? String(error)}`, { cause: error });
    }
    const plugin: RunningPlugin = { name: spec.plugin.name, instance, entriesKey: keyOf(spec.entries), active: 0, retired: false, unsubscribe: undefined };
    plugin.unsubscribe = instance.onToolsChanged?.(() => {
      if (plugin.retired || closed) return;
      tools = buildRegistry(running, false);
      options.onRegistryChanged("plugin");
    });
    return plugin;
  };

  /** Start the plugins that need it; on any failure close the new ones and rethrow. */
  const startAll = async (specs: PluginSpec[], reuse: Map<string, RunningPlugin>) => {
    const started: RunningPlugin[] = [];
    const next: RunningPlugin[] = [];
    try {
      for (const spec of specs) {
        const current = reuse.get(spec.plugin.name);
        if (current && current.entriesKey === keyOf(spec.entries)) {
          next.push(current);
        } else {
          const fresh = await startOne(spec);
          started.push(fresh);
          next.push(fresh);
        }
      }
      return { next, started, registry: buildRegistry(next, true) };
    } catch (error) {
      await Promise.all(started.map(closeInstance));
      throw error;
    }
  };

  return {
    get tools() {
      return tools;
    },
    async start(specs) {
      const { next, registry } = await startAll(specs, new Map());
      running = next;
      tools = registry;
    },
    async apply(specs) {
      const { next, started, registry } = await startAll(specs, new Map(running.map((plugin) => [plugin.name, plugin])));
      const replaced = running.filter((plugin) => !next.includes(plugin));
      running = next;
      tools = registry;
      for (const plugin of replaced) retire(plugin);
      options.onRegistryChanged("reload");
      return started.map((plugin) => plugin.name);
    },
    instance(name) {
      return running.find((plugin) => plugin.name === name)?.instance;
    },
    secrets() {
      return running.flatMap((plugin) => [...(plugin.instance.secrets?.() ?? [])]);
    },
    enter(owner) {
      owner.active++;
    },
    leave(owner) {
      owner.active--;
      if (owner.retired && owner.active === 0) void closeInstance(owner);
    },
    async close() {
      closed = true;
      const all = [...running, ...retired];
      running = [];
      tools = new Map();
      await Promise.all(all.map(closeInstance));
      await Promise.all([...closing]);
    },
  };
}
