/**
 * The `python` plugin: tools.json entries naming a Python function (`"function": "file.py:name"`),
 * run on warm workers. Schemas come from the functions' type hints and docstrings, asked of a worker
 * at start. A module edited on disk is noticed at its next call: the workers retire (finishing
 * calls under way), the module's schemas are read again, and the tool list is refreshed.
 */
import { statSync } from "node:fs";
import { availableParallelism } from "node:os";
import type { PythonFunctionEntry } from "../../core/config/load-tools-config.js";
import type { ExecutorPlugin, PluginContext, ToolDefinition, ToolErrorInfo } from "../../core/plugin-contract.js";
import { toolError } from "../../core/tool-result.js";
import { callFunction } from "./call-function.js";
import { describeModule, entriesByModule, type Description } from "./describe-functions.js";
import { buildWorkerEnvironment } from "./worker-environment.js";
import { createWorkerPool, type WorkerPool } from "./worker-pool.js";

/** Workers per interpreter (and env and cwd) at most: `parallel: true` tools overlap up to this. */
export const DEFAULT_MAX_WORKERS = Math.max(2, Math.min(4, availableParallelism()));

/** The plugin's API for hosts and tests. */
export interface PythonApi {
  /** Pids of the live workers. */
  workerPids(): number[];
}

interface PoolGroup {
  pool: WorkerPool;
  entries: PythonFunctionEntry[];
}

/** What identifies a file's content cheaply: a changed stamp means an edit (or a replacement). */
function stampOf(file: string): string {
  const stats = statSync(file, { throwIfNoEntry: false });
  return stats ? `${stats.ino}:${stats.size}:${stats.mtimeMs}` : "missing";
}

function toDefinition(entry: PythonFunctionEntry, described: Description): ToolDefinition | undefined {
  if (!described.ok) return undefined;
  const derived = described.functions.get(entry.function);
  if (!derived) return undefined;
  const outputSchema = entry.outputSchema ?? derived.outputSchema;
  return {
    name: entry.name,
    description: entry.description ?? derived.description,
    inputSchema: entry.inputSchema ?? derived.inputSchema,
    ...(outputSchema === undefined ? {} : { outputSchema }),
    annotations: { ...(entry.title === undefined ? {} : { title: entry.title }), ...entry.annotations },
    timeoutMs: entry.timeoutMs,
    parallel: entry.parallel,
  };
}

/**
 * @example
 * const plugin = pythonPlugin(); // started by the executor with tools.json's function entries
 */
export function pythonPlugin(options: { maxWorkers?: number } = {}): ExecutorPlugin<PythonFunctionEntry, PythonApi> {
  const maxWorkers = options.maxWorkers ?? DEFAULT_MAX_WORKERS;
  return {
    name: "python",
    async start(entries, context: PluginContext) {
      const groups = new Map<string, PoolGroup>();
      for (const entry of entries) {
        const key = JSON.stringify([entry.interpreter, entry.cwd, entry.env]);
        let group = groups.get(key);
        if (!group) {
          const env = buildWorkerEnvironment(entry.env, context.root);
          const onOutput = (stream: string, text: string) => context.logger.debug(`Python worker ${stream}`, { text });
          group = { pool: createWorkerPool({ interpreter: entry.interpreter, cwd: entry.cwd, env, onOutput }, maxWorkers), entries: [] };
          groups.set(key, group);
        }
        group.entries.push(entry);
      }
      const groupOf = new Map(entries.map((entry) => [entry.name, [...groups.values()].find((group) => group.entries.includes(entry))!]));
      const byName = new Map(entries.map((entry) => [entry.name, entry]));
      const definitions = new Map<string, ToolDefinition>();
      const unavailable = new Map<string, ToolErrorInfo>();
      const stamps = new Map<string, string>();
      const listeners = new Set<() => void>();
      let closed = false;

      /** Read a module's schemas (again); warn about its tools that cannot be offered. */
      const describe = async (group: PoolGroup, module: string, moduleEntries: PythonFunctionEntry[]) => {
        stamps.set(module, stampOf(module));
        const described = await describeModule(group.pool, moduleEntries);
        for (const entry of moduleEntries) {
          const definition = toDefinition(entry, described);
          if (definition) {
            definitions.set(entry.name, definition);
            unavailable.delete(entry.name);
            continue;
          }
          definitions.delete(entry.name);
          const message = described.ok ? `tools/${entry.modulePath} has no function "${entry.function}"` : described.message;
          unavailable.set(entry.name, { code: "TOOL_FAILED", message: `Python tool "${entry.name}" is unavailable: ${message}`, details: described.ok ? {} : described.details });
          context.logger.warn(`Python tool "${entry.name}" left out: ${message}`, { tool: entry.name });
        }
      };

      await Promise.all(
        [...groups.values()].map(async (group) => {
          for (const [module, moduleEntries] of entriesByModule(group.entries)) await describe(group, module, moduleEntries);
        }),
      );

      /** An edited module: retire the group's workers and read its schemas again. One refresh at a time per module. */
      const refreshing = new Map<string, Promise<void>>();
      const refreshIfEdited = async (entry: PythonFunctionEntry) => {
        const pending = refreshing.get(entry.module);
        if (pending) return pending;
        if (stampOf(entry.module) === stamps.get(entry.module)) return;
        const group = groupOf.get(entry.name)!;
        const refresh = (async () => {
          group.pool.retire();
          for (const [module, moduleEntries] of entriesByModule(group.entries)) await describe(group, module, moduleEntries);
          for (const listener of listeners) listener();
        })().finally(() => refreshing.delete(entry.module));
        refreshing.set(entry.module, refresh);
        return refresh;
      };

      return {
        listTools: () => entries.map((entry) => definitions.get(entry.name)).filter((definition) => definition !== undefined),
        secrets: () => [...new Set(entries.flatMap((entry) => Object.values(entry.env)))],
        onToolsChanged(listener) {
          listeners.add(listener);
          return () => listeners.delete(listener);
        },
        explainMissingTool(name) {
          const missing = unavailable.get(name);
          const entry = byName.get(name);
          if (!missing || !entry || closed || stampOf(entry.module) === stamps.get(entry.module)) return missing;
          // A broken module was edited: read it again in the background; the tool joins the list when it imports.
          void refreshIfEdited(entry);
          return { ...missing, message: `${missing.message} (the module changed since and is being read again: call again in a moment)` };
        },
        async callTool(call, callOptions) {
          const entry = byName.get(call.name);
          if (!entry) return toolError("TOOL_NOT_FOUND", `No Python function tool named "${call.name}"`);
          if (closed) return toolError("EXECUTOR_CLOSED", "The python plugin is closed");
          await refreshIfEdited(entry);
          const missing = unavailable.get(entry.name);
          if (missing) return { ok: false, error: missing };
          return callFunction(groupOf.get(entry.name)!.pool, entry, call, { signal: callOptions.signal, logger: context.logger });
        },
        api: { workerPids: () => [...groups.values()].flatMap((group) => group.pool.pids()) },
        async close() {
          closed = true;
          await Promise.all([...groups.values()].map((group) => group.pool.close()));
        },
      };
    },
  };
}
