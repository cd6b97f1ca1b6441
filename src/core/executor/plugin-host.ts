/**
 * Runs the plugins and keeps the tool registry. On reload only plugins whose entries changed are
 * restarted: the new instance starts, the registry swaps atomically, and the old instance closes
 * once the calls that leased its tools have finished on it.
 */
import { ToolexecError } from "../errors/toolexec-error.js";
import type { ExecutorPlugin, Logger, PluginContext, PluginInstance, ToolDefinition } from "../plugin-contract.js";
import { findUncheckedPatterns } from "../schema/find-unchecked-patterns.js";
import { isSimpleValidSchema } from "../schema/is-simple-valid-schema.js";
import { checkSchema, compileSchema, type CompiledValidator } from "../schema/schema-validator.js";

/** A plugin to run with the config entries it owns. */
export interface PluginSpec {
  plugin: ExecutorPlugin<never>;
  entries: unknown[];
}

export interface RunningPlugin {
  /** The plugin object it was started from: the key hosts use to reach its API. */
  plugin: ExecutorPlugin<never>;
  name: string;
  instance: PluginInstance;
  /**
   * Its entries as text, to tell on reload whether they changed. Made at the first reload, not at
   * start: 10,000 entries take ~20 ms to write out, and config entries are never mutated.
   */
  entriesKey: () => string;
  /** Calls that leased one of its tools and have not ended; a retired instance closes at zero. */
  leases: number;
}

export interface RegisteredTool {
  definition: ToolDefinition;
  owner: RunningPlugin;
  /** Compiled on first use: a registry of thousands of tools starts without compiling any. */
  inputValidator(): CompiledValidator;
  outputValidator(): CompiledValidator | undefined;
}

export interface PluginHost {
  /** The current registry; replaced whole, never mutated, so a lookup sees one consistent snapshot. */
  readonly tools: ReadonlyMap<string, RegisteredTool>;
  /** Start every plugin. On failure, closes what started and throws. */
  start(specs: PluginSpec[]): Promise<void>;
  /** Restart the plugins whose entries changed; returns their names. Throws and keeps the old set on failure. */
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
  /** After the registry changed, by reload or by a plugin's own notice; `previous` is the registry before. */
  onRegistryChanged(reason: "reload" | "plugin", previous: ReadonlyMap<string, RegisteredTool>): void;
}

const keyOf = (entries: unknown[]) => JSON.stringify(entries);

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

function registerTool(definition: ToolDefinition, owner: RunningPlugin): RegisteredTool {
  const { inputSchema, outputSchema } = definition;
  // Two closures over one scope, not a `lazy` pair: a registry of 10,000 tools holds one per tool.
  let input: CompiledValidator | undefined;
  let output: CompiledValidator | undefined;
  return {
    definition,
    owner,
    inputValidator: () => (input ??= compileSchema(inputSchema)),
    outputValidator: () => (outputSchema ? (output ??= compileSchema(outputSchema)) : undefined),
  };
}

/**
 * Schemas from plugins and MCP servers are not the user's to edit: a pattern the linear-time engine
 * cannot run leaves that keyword unchecked (the tool still works), with a warning naming the tool.
 */
function warnUncheckedPatterns(definition: ToolDefinition, plugin: string, logger: Logger): void {
  for (const key of ["inputSchema", "outputSchema"] as const) {
    const schema = definition[key];
    if (!schema || isSimpleValidSchema(schema)) continue;
    for (const problem of findUncheckedPatterns(schema)) {
      logger.warn(`Tool "${definition.name}" of plugin "${plugin}": ${key}.${problem.path.join(".")}: ${problem.message}; that keyword is left unchecked`);
    }
  }
}

export function createPluginHost(options: PluginHostOptions): PluginHost {
  let running: RunningPlugin[] = [];
  let tools: ReadonlyMap<string, RegisteredTool> = new Map();
  let closed = false;
  const retired = new Set<RunningPlugin>();
  const unsubscribes = new Map<RunningPlugin, () => void>();
  const closing = new Set<Promise<void>>();

  const closeInstance = (plugin: RunningPlugin): Promise<void> => {
    retired.delete(plugin);
    const done = (async () => {
      unsubscribes.get(plugin)?.();
      unsubscribes.delete(plugin);
      try {
        await plugin.instance.close();
      } catch (error) {
        options.logger.warn(`Plugin "${plugin.name}" failed to close: ${(error as Error).message}`);
      }
    })();
    closing.add(done);
    void done.finally(() => closing.delete(done));
    return done;
  };

  const retire = (plugin: RunningPlugin) => {
    retired.add(plugin);
    if (plugin.leases === 0) void closeInstance(plugin);
  };

  /** Build a registry; `strict` makes conflicts and bad schemas throw instead of skipping the tool. */
  const buildRegistry = (plugins: RunningPlugin[], strict: boolean) => {
    const registry = new Map<string, RegisteredTool>();
    const previous = tools;
    for (const owner of plugins) {
      for (const definition of owner.instance.listTools()) {
        const clash = registry.get(definition.name);
        if (clash) {
          const source = (plugin: string, server: { name: string } | undefined) => `plugin "${plugin}"${server ? ` (server "${server.name}")` : ""}`;
          const message = `Tool name "${definition.name}" is served by both ${source(clash.owner.name, clash.definition.server)} and ${source(owner.name, definition.server)}; rename one of them`;
          if (strict) throw new ToolexecError("TOOL_NAME_CONFLICT", message, { details: { tool: definition.name, plugins: [clash.owner.name, owner.name] } });
          options.logger.warn(`${message} (keeping the first)`);
          continue;
        }
        const reused = previous.get(definition.name);
        if (reused && reused.definition === definition && reused.owner === owner) {
          registry.set(definition.name, reused);
          continue;
        }
        const problems = [...checkSchema(definition.inputSchema), ...(definition.outputSchema ? checkSchema(definition.outputSchema) : [])];
        if (problems.length > 0) {
          const message = `Tool "${definition.name}" of plugin "${owner.name}" has an invalid JSON Schema: ${problems[0]!.message}`;
          if (strict) throw new ToolexecError("PLUGIN_FAILED", message, { details: { tool: definition.name, problems } });
          options.logger.warn(`${message} (tool skipped)`);
          continue;
        }
        warnUncheckedPatterns(definition, owner.name, options.logger);
        registry.set(definition.name, registerTool(definition, owner));
      }
    }
    return registry;
  };

  const startOne = async (spec: PluginSpec): Promise<RunningPlugin> => {
    let instance: PluginInstance;
    try {
      instance = await spec.plugin.start(spec.entries as never[], options.context);
    } catch (error) {
      if (error instanceof ToolexecError) throw error;
      throw new ToolexecError("PLUGIN_FAILED", `Plugin "${spec.plugin.name}" failed to start: ${(error as Error)?.message ?? String(error)}`, { cause: error });
    }
    const plugin: RunningPlugin = { plugin: spec.plugin, name: spec.plugin.name, instance, entriesKey: lazy(() => keyOf(spec.entries)), leases: 0 };
    const unsubscribe = instance.onToolsChanged?.(() => {
      if (retired.has(plugin) || closed || !running.includes(plugin)) return;
      const previous = tools;
      tools = buildRegistry(running, false);
      options.onRegistryChanged("plugin", previous);
    });
    if (unsubscribe) unsubscribes.set(plugin, unsubscribe);
    return plugin;
  };

  /** Start the plugins that need it; on any failure close the new ones and rethrow. */
  const startAll = async (specs: PluginSpec[], reuse: Map<ExecutorPlugin<never>, RunningPlugin>) => {
    const started: RunningPlugin[] = [];
    const next: RunningPlugin[] = [];
    try {
      for (const spec of specs) {
        const current = reuse.get(spec.plugin);
        if (current && current.entriesKey() === keyOf(spec.entries)) {
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
      const { next, started, registry } = await startAll(specs, new Map(running.map((plugin) => [plugin.plugin, plugin])));
      const replaced = running.filter((plugin) => !next.includes(plugin));
      const previous = tools;
      running = next;
      tools = registry;
      for (const plugin of replaced) retire(plugin);
      options.onRegistryChanged("reload", previous);
      return started.map((plugin) => plugin.name);
    },
    lease(name) {
      const tool = tools.get(name);
      if (tool) tool.owner.leases++;
      return tool;
    },
    release(tool) {
      if (--tool.owner.leases === 0 && retired.has(tool.owner)) void closeInstance(tool.owner);
    },
    instanceOf<Api>(plugin: ExecutorPlugin<never, Api>) {
      return running.find((candidate) => candidate.plugin === plugin)?.instance as PluginInstance<Api> | undefined;
    },
    instances: () => running.map((plugin) => plugin.instance),
    secrets() {
      return running.flatMap((plugin) => [...(plugin.instance.secrets?.() ?? [])]);
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
