/**
 * The `python` plugin: Python functions run on warm workers. tools.json entries name a function
 * (`"function": "file.py:name"`); `pythonModules` files bring the functions they mark with `@tool`
 * or `@mcp.tool()`. Schemas come from the functions' type hints and docstrings, asked of a worker
 * at start. A module edited on disk is noticed at its tools' next call, or when the tool list is
 * read again (a hot reload does): the workers retire (finishing calls under way), the module is
 * read again, and the tool list is refreshed.
 */
import { statSync } from "node:fs";
import { availableParallelism } from "node:os";
import type { PythonFunctionEntry } from "../../core/config/load-tools-config.js";
import { ConfigError } from "../../core/errors/config-error.js";
import { PLUGIN_CONTRACT_VERSION, type ExecutorPlugin, type PluginContext, type ToolDefinition, type ToolErrorInfo } from "../../core/plugin-contract.js";
import { pythonModulesSection, type PythonSettings } from "./config/python-modules-section.js";
import type { PythonModuleEntry } from "./config/resolve-python-modules.js";
import { resolvePythonInterpreter } from "../../core/python-interpreter.js";
import { toolError } from "../../core/tool-result.js";
import { callFunction } from "./call-function.js";
import { describeModule, discoverModule, type Description, type Discovery } from "./describe-functions.js";
import { explainUnavailableEntry } from "./explain-unavailable-entry.js";
import { prepareEnvironments } from "./prepare-environments.js";
import { assembleTools, type MarkedModule, type PythonTool } from "./python-tools.js";
import { buildWorkerEnvironment } from "./worker-environment.js";
import { createWorkerPool, type WorkerPool } from "./worker-pool.js";

/** What the python plugin runs: functions named in tools.json, and modules to discover tools in. */
export type PythonEntry = PythonFunctionEntry | PythonModuleEntry;
export type { PythonModuleEntry, PythonSettings };

/** Workers per interpreter (and env, cwd and memory cap) at most: `parallel: true` tools overlap up to this. */
export const DEFAULT_MAX_WORKERS = Math.max(2, Math.min(4, availableParallelism()));
/** Calls of parallel `async def` tools one worker runs at once on its event loop (tools.json `python.maxAsyncCallsPerWorker`). */
export const DEFAULT_MAX_ASYNC_CALLS_PER_WORKER = 10;

/** MCP log levels (what `ctx.log` takes) as the host logger's methods. */
const LOG_METHODS: Record<string, "debug" | "info" | "warn" | "error"> = { debug: "debug", info: "info", notice: "info", warning: "warn", error: "error", critical: "error", alert: "error", emergency: "error" };

/** The plugin's API for hosts and tests. */
export interface PythonApi {
  /** Pids of the live workers. */
  workerPids(): number[];
}

/** One module as one pool sees it: the functions tools.json names in it, and whether it is discovered. */
interface ModuleState {
  module: string;
  modulePath: string;
  pool: WorkerPool;
  named: PythonFunctionEntry[];
  discover?: PythonModuleEntry;
  stamp: string;
  described?: Description;
  discovered?: Discovery;
  /** The marked functions of its last reading left out alone (their schema failed): unavailable until read again. */
  failedMarked: string[];
}

/** What identifies a file's content cheaply: a changed stamp means an edit (or a replacement). */
function stampOf(file: string): string {
  const stats = statSync(file, { throwIfNoEntry: false });
  return stats ? `${stats.ino}:${stats.size}:${stats.mtimeMs}` : "missing";
}

/** Tools share a worker only when nothing of one could leak to another: same interpreter (environment), folder, env and memory cap. */
function workerKey(entry: PythonEntry, interpreter: string): string {
  return JSON.stringify([interpreter, entry.cwd, entry.env, entry.memoryLimitMb ?? null]);
}

/**
 * @example
 * const plugin = pythonPlugin(); // started by the executor with tools.json's function entries, and pythonModules as its config
 */
export function pythonPlugin(options: { maxWorkers?: number } = {}): ExecutorPlugin<PythonEntry, PythonApi, PythonSettings> {
  return {
    name: "python",
    contractVersion: PLUGIN_CONTRACT_VERSION,
    config: pythonModulesSection(),
    async start(given, context: PluginContext<PythonSettings>) {
      const maxWorkers = context.config?.maxWorkers ?? options.maxWorkers ?? DEFAULT_MAX_WORKERS;
      const asyncLimit = context.config?.maxAsyncCallsPerWorker ?? DEFAULT_MAX_ASYNC_CALLS_PER_WORKER;
      // Module entries may also come as entries (a test or a host starting the plugin by hand).
      const all: PythonEntry[] = [...given, ...(context.config?.modules ?? [])];
      const prepared = await prepareEnvironments(all, context);
      const entries = all.filter((entry) => !prepared.failures.has(entry));
      const interpreterOf = prepared.interpreterOf;
      const pools = new Map<string, WorkerPool>();
      const states = new Map<string, ModuleState>();
      // Per entry object, once: the key is a JSON string of the entry's env, too dear for every call.
      const stateByEntry = new WeakMap<PythonEntry, ModuleState>();
      const stateOf = (entry: PythonEntry) => {
        let state = stateByEntry.get(entry);
        if (!state) stateByEntry.set(entry, (state = states.get(`${workerKey(entry, interpreterOf(entry))}\u0000${entry.module}`)!));
        return state;
      };
      for (const entry of entries) {
        const key = workerKey(entry, interpreterOf(entry));
        let pool = pools.get(key);
        if (!pool) {
          const env = buildWorkerEnvironment(entry.env, context.root);
          const onOutput = (stream: string, text: string) => context.logger.debug(`Python worker ${stream}`, { text });
          // A shim's interpreter once, not a shim per worker; one that cannot be found is spawned as
          // given, so the worker's failure says why (as it would without this step).
          const interpreter = await resolvePythonInterpreter(interpreterOf(entry), entry.cwd).catch(() => interpreterOf(entry));
          pool = createWorkerPool({ interpreter, cwd: entry.cwd, env, onOutput, ...(entry.memoryLimitMb === undefined ? {} : { memoryLimitMb: entry.memoryLimitMb }) }, maxWorkers);
          pools.set(key, pool);
        }
        const stateKey = `${key}\u0000${entry.module}`;
        const state = states.get(stateKey) ?? { module: entry.module, modulePath: entry.modulePath, pool, named: [], stamp: "", failedMarked: [] };
        states.set(stateKey, state);
        if ("function" in entry) state.named.push(entry);
        else state.discover = entry;
      }
      const named = entries.filter((entry): entry is PythonFunctionEntry => "function" in entry);
      const namedByName = new Map(all.filter((entry): entry is PythonFunctionEntry => "function" in entry).map((entry) => [entry.name, entry]));
      const discovered = entries.filter((entry): entry is PythonModuleEntry => !("function" in entry));
      let tools = new Map<string, { tool: PythonTool; definition: ToolDefinition }>();
      let asyncTools = new Set<string>();
      const unavailable = new Map<string, ToolErrorInfo>();
      /** `pythonModules` files that fail to import, by path: their tools are unknown, so the module is the broken piece. */
      const brokenModules = new Map<string, ToolErrorInfo>();
      for (const [entry, error] of prepared.failures) if ("function" in entry) unavailable.set(entry.name, { ...error, message: `Python tool "${entry.name}" is unavailable: ${error.message}` });
      const listeners = new Set<() => void>();
      let closed = false;

      /** Read a module (again); warn about what it cannot offer. */
      const read = async (state: ModuleState) => {
        state.stamp = stampOf(state.module);
        if (state.named.length > 0) state.described = await describeModule(state.pool, state.named, context.root);
        if (state.discover) {
          state.discovered = await discoverModule(state.pool, state.discover, context.root);
          const moduleName = `tools/${state.modulePath}`;
          brokenModules.delete(moduleName);
          if (!state.discovered.ok) {
            brokenModules.set(moduleName, { code: "TOOL_FAILED", message: `Python module ${moduleName} is unavailable: ${state.discovered.message}`, details: { module: state.modulePath } });
            context.logger.warn(`Python module ${moduleName} left out: ${state.discovered.message}`);
          }
          for (const item of state.discovered.ok ? state.discovered.notServed : []) {
            context.logger.warn(`tools/${state.modulePath}${item.line === null ? "" : `:${item.line}`}: ${item.kind} "${item.name}" is not served: toolexec's Python workers serve a file's tools only; to serve its resources and prompts, declare the file in mcp.json as "python": { "server": "tools/${state.modulePath}", "requirements": [...] } (docs/python-tools.md)`);
          }
          for (const name of state.failedMarked.splice(0)) unavailable.delete(name);
          for (const failure of state.discovered.ok ? state.discovered.failures : []) {
            const reason = `tools/${state.modulePath}${failure.line === null ? "" : `:${failure.line}`}: ${failure.message}`;
            unavailable.set(failure.name, { code: "TOOL_FAILED", message: `Python tool "${failure.name}" is unavailable: ${reason}`, details: { module: state.modulePath, line: failure.line } });
            state.failedMarked.push(failure.name);
            context.logger.warn(`Python tool "${failure.name}" left out: ${reason}`, { tool: failure.name });
          }
        }
        // No worker could read it (failed starts, backoff): read it again when next asked, edited or not.
        if ((state.described?.ok === false && state.described.transient) || (state.discovered?.ok === false && state.discovered.transient)) state.stamp = "";
        for (const entry of state.named) {
          const problem = explainUnavailableEntry(entry, state.described!);
          if (!problem) {
            unavailable.delete(entry.name);
            continue;
          }
          unavailable.set(entry.name, { code: problem.code, message: `Python tool "${entry.name}" is unavailable: ${problem.reason}`, details: problem.details });
          context.logger.warn(`Python tool "${entry.name}" left out: ${problem.reason}`, { tool: entry.name });
        }
      };

      /** The served list from every module's last reading; problems throw at start and are warnings later. */
      const assemble = (strict: boolean) => {
        const describedTools = named.flatMap((entry) => {
          const described = stateOf(entry).described;
          const derived = described?.ok ? described.functions.get(entry.function) : undefined;
          return derived ? [{ tool: entry as PythonTool, derived }] : [];
        });
        const modules: MarkedModule[] = discovered.flatMap((entry) => {
          const discovery = stateOf(entry).discovered;
          return discovery?.ok ? [{ entry, functions: discovery.tools }] : [];
        });
        const assembled = assembleTools(describedTools, modules);
        asyncTools = new Set([...describedTools.filter(({ derived }) => derived.async).map(({ tool }) => tool.name), ...modules.flatMap(({ functions }) => functions.filter((marked) => marked.async).map((marked) => marked.name))]);
        if (strict && assembled.problems.length > 0) throw new ConfigError("CONFIG_INVALID", assembled.problems);
        for (const problem of assembled.problems) context.logger.warn(`${problem.file}${problem.line ? `:${problem.line}` : ""}: ${problem.message} (left out)`);
        tools = assembled.tools;
      };

      try {
        // Pools read in parallel; one pool reads its modules one after another.
        const byPool = new Map<WorkerPool, ModuleState[]>();
        for (const state of states.values()) byPool.set(state.pool, [...(byPool.get(state.pool) ?? []), state]);
        await Promise.all([...byPool.values()].map(async (poolStates) => {
          for (const state of poolStates) await read(state);
        }));
        assemble(true);
      } catch (error) {
        await Promise.all([...pools.values()].map((pool) => pool.close()));
        throw error;
      }

      /** An edited module: retire its pool's workers and read the pool's edited modules again. One refresh per pool at a time. */
      const refreshing = new Map<WorkerPool, Promise<void>>();
      const refreshIfEdited = (state: ModuleState): Promise<void> | undefined => {
        const pending = refreshing.get(state.pool);
        if (pending) return pending;
        if (closed || stampOf(state.module) === state.stamp) return undefined;
        const refresh = (async () => {
          state.pool.retire();
          for (const other of states.values()) if (other.pool === state.pool && stampOf(other.module) !== other.stamp) await read(other);
          assemble(false);
          for (const listener of listeners) listener();
        })().finally(() => refreshing.delete(state.pool));
        refreshing.set(state.pool, refresh);
        return refresh;
      };

      return {
        listTools() {
          // A hot reload lists the tools again: a module edited since (a tool added, an import fixed) is read in the background.
          for (const state of states.values()) void refreshIfEdited(state);
          return [...tools.values()].map((served) => served.definition);
        },
        secrets: () => [...new Set(entries.flatMap((entry) => Object.values(entry.env)))],
        onToolsChanged(listener) {
          listeners.add(listener);
          return () => listeners.delete(listener);
        },
        unavailableTools: () => [
          ...[...unavailable].map(([name, error]) => {
            const source = namedByName.get(name)?.source;
            return { name, error, ...(source ? { source } : {}) };
          }),
          ...[...brokenModules].map(([name, error]) => ({ name, kind: "module" as const, error })),
        ],
        explainMissingTool(name) {
          const missing = unavailable.get(name);
          const entry = namedByName.get(name);
          // An entry whose environment failed has no worker to read it with: a reload builds again.
          if (!missing || !entry || closed || prepared.failures.has(entry) || !refreshIfEdited(stateOf(entry))) return missing;
          // A broken module was edited: it is read again in the background; the tool joins the list when it imports.
          return { ...missing, message: `${missing.message} (the module changed since and is being read again: call again in a moment)` };
        },
        async callTool(call, callOptions) {
          if (closed) return toolError("EXECUTOR_CLOSED", "The python plugin is closed");
          const before = tools.get(call.name)?.tool ?? namedByName.get(call.name);
          const refresh = before && refreshIfEdited(stateOf(before));
          if (refresh) await refresh; // no await otherwise: a warm call stays on the fast path
          const missing = unavailable.get(call.name);
          if (missing) return { ok: false, error: missing };
          const served = tools.get(call.name);
          const refused = before && stateOf(before).discovered;
          if (!served && refused && !refused.ok && refused.code) return toolError(refused.code, `Python tool "${call.name}" is unavailable: ${refused.message}`, refused.details);
          if (!served) return toolError("TOOL_NOT_FOUND", `No Python function tool named "${call.name}"${before ? ` any more: tools/${before.modulePath} no longer defines it` : ""}`);
          const concurrent = served.tool.parallel && asyncTools.has(call.name) ? { concurrentLimit: asyncLimit } : {};
          const onLog = (level: string, message: string) => {
            const fields = { tool: call.name, executionId: call.executionId, level };
            context.logger[LOG_METHODS[level] ?? "info"](`${call.name}: ${message}`, fields);
            context.emit("python:log", { ...fields, message });
          };
          return callFunction(stateOf(served.tool).pool, served.tool, call, { signal: callOptions.signal, logger: context.logger, root: context.root, ...concurrent, onLog, ...(callOptions.onProgress ? { onProgress: callOptions.onProgress } : {}) });
        },
        api: { workerPids: () => [...pools.values()].flatMap((pool) => pool.pids()) },
        async close() {
          closed = true;
          await Promise.all([...pools.values()].map((pool) => pool.close()));
        },
      };
    },
  };
}
