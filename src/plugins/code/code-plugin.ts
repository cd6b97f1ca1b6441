/**
 * The `code` plugin: the `code_execution` tool. Each run is checked and prepared on the host, then
 * runs in a fresh SES Compartment inside a pooled child-process runtime that the host kills at the
 * deadline or past the memory cap; its tool calls go back through the executor's own pipeline.
 */
import { performance } from "node:perf_hooks";
import { ToolexecError } from "../../core/errors/toolexec-error.js";
import { CallGroup } from "../../core/executor/call-group.js";
import { eventListening } from "../../core/executor/event-listening.js";
import { PLUGIN_CONTRACT_VERSION, type CallerAccess, type ExecutorPlugin, type PluginInstance, type PluginResult } from "../../core/plugin-contract.js";
import { CODE_EXECUTION_TOOL_NAME } from "../../core/tool-names.js";
import { toolError } from "../../core/tool-result.js";
import { codeConfigSection } from "./config/code-config-section.js";
import type { CodeExecutionConfig } from "./config/code-execution-config-schema.js";
import { resolveCodeExecutionOptions, type ResolvedCodeExecutionOptions } from "./config/code-execution-options.js";
import { createCodeExecutionTool } from "./code-execution-tool.js";
import { shapeCodeLogRecord, type CodeRunStats } from "./code-log-record.js";
import type { CodeExecutionOutput, CodeFailureDetails } from "./code-result.js";
import { CodeRun, MAX_PENDING_STATS, type CodeRunHost } from "./code-run.js";
import { createPreparedSourceCache } from "./prepared-source-cache.js";
import { countLines } from "./prepare-source.js";
import { resolveCodeRequest } from "./resolve-code-request.js";
import { runOnRuntime, type RunOutcome } from "./run-on-runtime.js";
import { createRuntimePool } from "./runtime-pool.js";
import type { RuntimeProcess } from "./runtime-process.js";
import { warmCodeMode } from "./warm-code-mode.js";
import { createCallerCatalogs } from "./caller-catalogs.js";
import { callCancellation, cancelCode, type Cancellation } from "./call-cancellation.js";
import type { RankTools } from "./declarations/index.js";
import { PIPELINE_GRACE_MS } from "./code-execution-tool.js";
import { createSavedToolChains, type SavedToolChainPosition } from "./saved/saved-tool-chains.js";
import { shapeSavedToolLogRecord } from "./saved/saved-tool-log-record.js";
import type { SavedTool } from "./saved/saved-tool-file.js";
import { createSavedTools, type SavedToolsApi } from "./saved/saved-tools.js";

export const CODE_PLUGIN_NAME = "code";
/** Largest arguments object code may pass to one tool, as JSON. */
export const MAX_TOOL_ARGUMENT_BYTES = 4 * 1024 * 1024;
/** Why a run's calls still under way are cancelled when it ends (one object: the run's hot path makes no Error). */
const RUN_ENDED = new ToolexecError("CANCELLED", "The code execution that made this call has ended");
/** The call group of every run that ended before making a tool call: already ended, shared. */
const ENDED_RUN_CALLS = new CallGroup();
ENDED_RUN_CALLS.end(RUN_ENDED);

export interface CodePluginOptions {
  /** Reload saved tools after hand edits of their files (the executor's `watch`). Default false. */
  watch?: boolean;
  /** The executor's ranking for code mode's `search_tools` (handed in by the composition root); without it, keyword counting. */
  rankTools?: RankTools;
  /** The search-first listing is on (asked at each start): code mode's description names only servers and points to `search_tools`. */
  searchFirst?: boolean | (() => boolean);
  /** The host's `codeExecution` option: each key set here overrides the same key of tools.json's `codeExecution`. */
  codeExecution?: CodeExecutionConfig;
}

/**
 * The plugin. It owns tools.json's `codeExecution` (its `config`), and runs only when that, with
 * the host's option over it, is enabled; started without a config (as the contract suite does) it
 * runs enabled with the defaults. Its API is the saved tools'.
 *
 * `rankTools` is the executor's tool ranking (`executor.searchTools`), handed in by the composition
 * root so that code's `search_tools` ranks like every other front door; without it, word matching.
 * `searchFirst` (the executor's search-first listing): the tool's description names only servers.
 *
 * @example
 * const plugin = codePlugin({ watch: true }); // started by the executor when code execution is enabled
 */
export function codePlugin(pluginOptions: CodePluginOptions = {}): ExecutorPlugin<never, SavedToolsApi, ResolvedCodeExecutionOptions> {
  return {
    name: CODE_PLUGIN_NAME,
    contractVersion: PLUGIN_CONTRACT_VERSION,
    config: codeConfigSection(pluginOptions.codeExecution),
    async start(_entries, context): Promise<PluginInstance<SavedToolsApi>> {
      const options = context.config ?? resolveCodeExecutionOptions(undefined, { enabled: true });
      const closing = new AbortController();
      const pool = createRuntimePool({
        poolSize: options.poolSize,
        maxQueue: options.maxQueue,
        memoryLimitMb: options.memoryLimitMb,
        maxFrameBytes: Math.max(options.maxResultBytes, MAX_TOOL_ARGUMENT_BYTES) + 8 * options.maxLogBytes + 64 * 1024,
        // Each level of saved tools nesting in each run of the pool may need one more.
        maxBorrowed: options.poolSize * options.maxSavedToolDepth,
        logger: context.logger,
        prewarm: options.prewarm,
        // The host side of a first run follows, once the runtime is up (the executor is ready by then).
        onPrewarmed: () => warmCodeMode(closing.signal),
      });
      const toolsChanged = new Set<() => void>();
      // The pool first, so that its first runtime starts while the saved tools load; a failure closes it again.
      const saved = await createSavedTools({
        root: context.root,
        logger: context.logger,
        watch: pluginOptions.watch === true,
        allowSaving: options.allowSavingTools,
        maxCodeBytes: options.maxCodeBytes,
        timeoutMs: options.maxTimeoutMs + PIPELINE_GRACE_MS,
        listTools: () => context.listTools(),
        onChanged() {
          for (const listener of [...toolsChanged]) listener();
        },
      }).catch(async (error: unknown) => {
        await pool.close();
        throw error;
      });
      const searchFirst = typeof pluginOptions.searchFirst === "function" ? pluginOptions.searchFirst() : pluginOptions.searchFirst === true;
      const tool = createCodeExecutionTool({ options, searchFirst, listTools: () => context.listTools(), logger: context.logger, describeFor: (access) => catalogs.descriptionFor(access) });
      // A served caller's runs and description hold only the tools its view has (docs/identity.md).
      const catalogs = createCallerCatalogs({ listTools: () => context.listTools(), exclude: options.excludeTools, describe: (tools) => tool.describe(tools) });
      const unsubscribe = context.onToolsChanged(() => {
        catalogs.invalidate();
        tool.invalidate();
      });
      /** Each saved tool's run, for its log line: its logs and tool calls (its value is the call's value). */
      const savedRuns = new Map<string, CodeExecutionOutput | CodeFailureDetails>();
      const listedAlone = options.listOnlyCodeExecution ? new Set([CODE_EXECUTION_TOOL_NAME, ...options.excludeTools]) : undefined;
      const stats = new Map<string, CodeRunStats>();
      // Statistics and saved runs wait for the execution log's shapeLogRecord: without a log (no writeLog), nobody reads them.
      const logging = context.writeLog !== undefined;
      const chains = createSavedToolChains(context.callChain);
      const sources = createPreparedSourceCache();
      let closed: Promise<void> | undefined;

      // Payloads of events nobody hears are not built: most hosts listen to neither.
      const hears = eventListening(context);
      const runHost: CodeRunHost = {
        stats: logging ? stats : undefined,
        hears,
        emit: (event, payload) => context.emit(event, payload),
        explainMissing: (name) => context.explainMissingTool?.(name),
        callTool: (name, toolArgs, callOptions) => context.callTool(name, toolArgs, callOptions),
        stopSignal: closing.signal,
        rankTools: pluginOptions.rankTools,
        limits: { maxResultBytes: options.maxResultBytes, maxLogBytes: options.maxLogBytes, maxArgumentBytes: MAX_TOOL_ARGUMENT_BYTES, memoryLimitMb: options.memoryLimitMb },
      };
      // Runs under way, for close: a count, not a set of promises (each tracked promise cost the run another async frame).
      let underWay = 0;
      let drained: (() => void) | undefined;

      /** `position.chain`: the saved tools running in this run's chain of calls (its own name last when it is one). */
      const execute = (executionId: string, args: unknown, cancellation: Cancellation, deadline: number, position: SavedToolChainPosition, savedTool: SavedTool | undefined, access: CallerAccess | undefined): Promise<PluginResult> => {
        const started = performance.now();
        const resolved = resolveCodeRequest(args, options);
        if (!resolved.ok) return Promise.resolve(toolError("INVALID_INPUT", resolved.message));
        const { request } = resolved;
        if (hears("code:start")) context.emit("code:start", { executionId, code: request.code.slice(0, 500), inputBytes: request.inputBytes, timeoutMs: request.timeoutMs });
        const run = new CodeRun(runHost, started, executionId, request, Math.min(Date.now() + request.timeoutMs, deadline), cancellation, catalogs.catalogFor(access));
        const prepared = sources.prepare(request.code, savedTool);
        if (!prepared.ok) return Promise.resolve(run.end({ ok: false, error: { code: "SYNTAX_ERROR", message: prepared.message } }));
        run.prepared = prepared.prepared;
        run.codeLines = countLines(request.code);
        return runInPool(run, position);
      };

      const leave = () => {
        if (--underWay === 0) drained?.();
      };
      const acquireFailed = (run: CodeRun, error: unknown): PluginResult => {
        const fault = error instanceof ToolexecError ? error : new ToolexecError("PLUGIN_FAILED", String(error));
        run.queueMs = performance.now() - run.started;
        return run.end({ ok: false, error: { code: fault.code, message: fault.message } });
      };

      /** The run on a runtime of the pool. No async frame while it waits for one: a burst keeps thousands waiting. */
      const runInPool = (run: CodeRun, position: SavedToolChainPosition): Promise<PluginResult> => {
        let acquiring: Promise<RuntimeProcess>;
        try {
          acquiring = pool.acquire(run.deadline, run.cancellation, position.nested);
        } catch (error) {
          acquiring = Promise.reject(error);
        }
        underWay++;
        return acquiring.then(
          (runtime) => runOnPool(run, position, runtime),
          (error: unknown) => {
            try {
              return acquireFailed(run, error);
            } finally {
              leave();
            }
          },
        );
      };

      const runOnPool = async (run: CodeRun, position: SavedToolChainPosition, first: RuntimeProcess): Promise<PluginResult> => {
        const { executionId, started } = run;
        try {
          let runtime = first;
          let outcome: RunOutcome;
          let runStarted: number;
          for (;;) {
            runStarted = performance.now();
            run.queueMs = runStarted - started;
            chains.enter(executionId, position.chain);
            outcome = await runOnRuntime(runtime, run);
            chains.end(executionId);
            if (outcome.reusable) pool.release(runtime, outcome.run);
            if (!outcome.notStarted) break;
            // Sent ahead to a runtime that died before starting it: nothing ran, so it runs on another.
            try {
              runtime = await pool.acquire(run.deadline, run.cancellation, position.nested);
            } catch (error) {
              return acquireFailed(run, error);
            }
          }
          run.runMs = performance.now() - runStarted;
          // Calls still under way (the run timed out or was stopped) are cancelled; later ones are refused.
          if (run.calls) run.calls.end(RUN_ENDED);
          else run.calls = ENDED_RUN_CALLS;
          return run.end(outcome.result, outcome);
        } finally {
          leave();
        }
      };

      /**
       * A saved tool's call: its code runs like a code_execution run with `input` = the arguments; its
       * value is the run's value, its `content` the run's whole output (the audit), its failure's
       * details the run's logs and tool calls.
       */
      const runSavedTool = async (name: string, executionId: string, input: unknown, cancellation: Cancellation, deadline: number, position: SavedToolChainPosition, access: CallerAccess | undefined): Promise<PluginResult> => {
        const savedTool = saved.get(name);
        if (!savedTool) return toolError("TOOL_NOT_FOUND", `The code plugin has no tool "${name}"`);
        const { chain } = position;
        if (chain.length >= options.maxSavedToolDepth) {
          return toolError("RECURSION_LIMIT", `Saved tool "${name}" was not run: ${chain.length} saved tools already run inside each other (${[...chain, name].join(" → ")}), the limit is ${options.maxSavedToolDepth} (codeExecution.maxSavedToolDepth)`, {
            depth: chain.length,
            chain: [...chain, name],
          });
        }
        const outcome = await execute(executionId, { code: savedTool.code, input }, cancellation, deadline, { chain: [...chain, name], nested: position.nested }, savedTool, access);
        if (logging && savedRuns.size >= MAX_PENDING_STATS) savedRuns.delete(savedRuns.keys().next().value!);
        if (!outcome.ok) {
          if (logging && outcome.error.details) savedRuns.set(executionId, outcome.error.details as CodeFailureDetails);
          return outcome;
        }
        const output = outcome.value as CodeExecutionOutput;
        if (logging) savedRuns.set(executionId, output);
        // The run's output is the call's raw result: its audit reaches the caller beside the value.
        return { ok: true, value: output.value, content: output };
      };

      const instance: PluginInstance<SavedToolsApi> = {
        listTools: () => [tool.definition, ...saved.definitions()],
        // Not async: the run's one async frame is `execute`'s (a burst keeps thousands waiting for a runtime).
        callTool(call, callOptions) {
          const { deadline, caller } = callOptions;
          if (closed) return Promise.resolve(toolError("EXECUTOR_CLOSED", "The code plugin is closed"));
          const builtIn = saved.callBuiltIn(call.name, call.arguments);
          if (builtIn) return builtIn;
          // Not the call's `signal`: reading it makes an AbortController, which a run rarely needs.
          const cancellation = callCancellation(callOptions);
          const cancelled = cancellation.reason();
          if (cancelled !== undefined) return Promise.resolve(toolError(cancelCode(cancelled), "The code execution was cancelled before it started"));
          const position = chains.positionOf(call.executionId);
          try {
            return call.name === CODE_EXECUTION_TOOL_NAME
              ? execute(call.executionId, call.arguments, cancellation, deadline, position, undefined, caller?.access)
              : runSavedTool(call.name, call.executionId, call.arguments, cancellation, deadline, position, caller?.access);
          } catch (error) {
            // What an async callTool would do: a fault of the host's own checks rejects.
            return Promise.reject(error);
          }
        },
        onToolsChanged(listener) {
          toolsChanged.add(listener);
          return () => toolsChanged.delete(listener);
        },
        api: saved.api,
        // A listing policy, not access control: under `listOnlyCodeExecution` the tools code can
        // call are left out of what a model is shown (it reaches them through code_execution).
        ...(listedAlone === undefined ? {} : { isListed: (definition) => listedAlone.has(definition.name) }),
        shapeLogRecord(record) {
          const executionId = String(record.executionId);
          const runStats = stats.get(executionId);
          stats.delete(executionId);
          if (record.tool === CODE_EXECUTION_TOOL_NAME) return shapeCodeLogRecord(record, runStats);
          const savedRun = savedRuns.get(executionId);
          savedRuns.delete(executionId);
          return shapeSavedToolLogRecord(record, savedRun, runStats);
        },
        close() {
          closed ??= (async () => {
            unsubscribe();
            toolsChanged.clear();
            await saved.close();
            closing.abort(new ToolexecError("EXECUTOR_CLOSED", "The executor closed while the code was running; it was stopped"));
            await pool.close();
            if (underWay > 0) await new Promise<void>((resolve) => (drained = resolve));
          })();
          return closed;
        },
      };
      return instance;
    },
  };
}
