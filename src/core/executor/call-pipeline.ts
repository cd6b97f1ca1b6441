/**
 * The one path every call takes, from the host, the CLI or a plugin: resolve → snapshot and
 * validate input → schedule → plugin call under deadline and signal → validate output → envelope →
 * log → events. The pipeline owns call tracking: `close()` aborts every call under way through it
 * and waits for all of them to settle (their log records written).
 */
import { performance } from "node:perf_hooks";
import { ToolexecError, isToolexecError } from "../errors/toolexec-error.js";
import type { Emitter } from "../events.js";
import type { ExecutionLog } from "../log/execution-log.js";
import type { CallToolOptions, PluginResult, ToolErrorInfo } from "../plugin-contract.js";
import type { CallTelemetry } from "../telemetry/call-telemetry.js";
import { runInSpan } from "../telemetry/span-context.js";
import { toolError, type ToolResult } from "../tool-result.js";
import { boundToolResult, type ResultBounds } from "../results/bound-result.js";
import { displayName, readCallOptions, snapshotArguments, type ReadCallOptions } from "./call-input.js";
import { checkInput, checkOutput } from "./call-schema-checks.js";
import { explainMissingTool, resolveMissingTool } from "./missing-tool.js";
import { admitCall, effectiveCaller, missingForCaller } from "./caller-access.js";
import { CallRecord, finishCall } from "./call-record.js";
import type { AccessVerdict } from "../caller-info.js";
import type { Scheduler } from "../schedule/scheduler.js";
import { RunningCall } from "./running-call.js";
import { createPluginCallOptions } from "./plugin-call-options.js";
import { takeTurn } from "./take-turn.js";
import type { ExecutorEvents } from "./executor-events.js";
import type { PluginHost, RegisteredTool } from "./plugin-host.js";

export { ABORT_GRACE_MS } from "./running-call.js";

/** Most ancestors `callChain` walks: far past any real nesting (code mode stops saved tools at 8). */
const MAX_CALL_CHAIN = 1_000;

export interface PipelineDependencies {
  host: PluginHost;
  scheduler: Scheduler;
  emitter: Emitter<ExecutorEvents>;
  log: ExecutionLog | undefined;
  defaultTimeoutMs: number;
  /** Where bounded calls keep what they cut, and the project's budget. */
  results: ResultBounds;
  /** Why a name is not in the registry when it is known but switched off (e.g. code_execution). */
  unavailableToolHint?(name: string): string | undefined;
  /** Spans and metrics of every call (telemetry/call-telemetry.ts). */
  telemetry?: CallTelemetry;
}

export type CallTool = (name: string, args?: unknown, options?: CallToolOptions) => Promise<ToolResult>;

export interface CallPipeline {
  callTool: CallTool;
  /** What a call of `name` would answer for want of that tool, without calling; undefined when it is registered. */
  explainMissing(name: string): ToolErrorInfo | undefined;
  /** The calls under way that led to call `executionId`, nearest first (see `PluginContext.callChain`). */
  callChain(executionId: string): string[];
  /** Refuse new calls (`EXECUTOR_CLOSED`), abort every call under way with `reason`, and wait until all have settled. */
  closeAll(reason: ToolexecError): Promise<void>;
  /** Calls past input checks and not yet ended (waiting for a turn or running). */
  readonly underWay: number;
  readonly telemetry: CallTelemetry | undefined;
}

/** What the steps of a call share: the dependencies, the calls under way, and the pipeline's own `callTool` (for sub-calls). */
interface PipelineState extends PipelineDependencies {
  calls: Map<string, RunningCall>;
  callTool: CallTool;
}

/** The plugin's call, with sub-calls and progress wired to this call. */
function invoke(state: PipelineState, registered: RegisteredTool, call: CallRecord, callArguments: Record<string, unknown>, running: RunningCall, options: CallToolOptions) {
  const { owner } = registered;
  const { name, executionId, parentExecutionId } = call;
  const { emitter } = state;
  const callerProgress = options.onProgress;
  const pluginOptions = createPluginCallOptions(
    running,
    call.startedAt + call.timeoutMs!,
    (subName, subArgs, subOptions = {}) => state.callTool(subName, subArgs, { signal: running.signal, ...subOptions, parentExecutionId: executionId }),
    call.caller,
  );
  // Offered only when someone listens: an MCP server is then not asked for progress nobody reads.
  const emitting = emitter.hasListeners("tool:progress");
  if (emitting || callerProgress) {
    pluginOptions.onProgress = (progress) => {
      if (callerProgress) {
        try {
          callerProgress(progress);
        } catch {
          // A caller's progress callback must not break the call.
        }
      }
      if (emitting) emitter.emit("tool:progress", parentExecutionId === undefined ? { executionId, tool: name, ...progress } : { executionId, tool: name, ...progress, parentExecutionId });
    };
  }
  const start = () => owner.instance.callTool({ name, arguments: callArguments, executionId }, pluginOptions);
  // In the call's span context, so the plugin's own spans (an MCP request's) are its children.
  return running.answer(owner.name, call.span === undefined ? start : () => runInSpan(call.span!, start));
}

/**
 * A turn on the scheduler: the release function, or the call's end when it was cancelled before
 * its turn came. A free turn is taken without a promise (the common case).
 */
async function waitForTurn(state: PipelineState, call: CallRecord, turn: Promise<() => void>): Promise<(() => void) | PluginResult> {
  const waitStarted = performance.now();
  let release: () => void;
  try {
    release = await turn;
  } catch (error) {
    return turnRefused(error);
  }
  const waitedMs = performance.now() - waitStarted;
  state.telemetry?.recordQueueWait(call.name, waitedMs / 1000);
  // Logged only for calls that waited, so `toolexec logs` can show queue waits at no cost to the rest.
  call.queueMs = Math.round(waitedMs * 1000) / 1000;
  return release;
}

function turnRefused(error: unknown): PluginResult {
  const fault = isToolexecError(error) ? error : new ToolexecError("CANCELLED", String(error));
  return toolError(fault.code, fault.message, fault.details);
}

/** The input snapshot and check, then the call's running state (tracked, its start told): its failure, or the running call. */
function startRunning(state: PipelineState, registered: RegisteredTool, call: CallRecord, options: ReadCallOptions): PluginResult | RunningCall {
  const { name, executionId, parentExecutionId } = call;
  const snapshot = snapshotArguments(name, call.args);
  if (!snapshot.ok) return snapshot;
  const callArguments = (call.args = snapshot.value);
  const invalid = checkInput(registered, name, callArguments);
  if (invalid) return invalid;
  const timeoutMs = (call.timeoutMs = options.timeoutMs ?? registered.definition.timeoutMs ?? state.defaultTimeoutMs);
  const running = new RunningCall(name, timeoutMs, options.signal, options.group);
  running.caller = call.caller;
  running.parentExecutionId = parentExecutionId;
  running.traceContext = call.span?.context;
  state.calls.set(executionId, running);
  const { emitter } = state;
  if (emitter.hasListeners("tool:start")) emitter.emit("tool:start", parentExecutionId === undefined ? { executionId, tool: name, arguments: callArguments } : { executionId, tool: name, arguments: callArguments, parentExecutionId });
  return running;
}

/**
 * A leased tool's call, in one async frame (a call waiting in a burst keeps only this one):
 * admission, input checks, a turn, the plugin's call under its deadline, the output check and the end.
 */
async function runLeased(state: PipelineState, registered: RegisteredTool, call: CallRecord, options: ReadCallOptions): Promise<ToolResult> {
  let admitted: AccessVerdict | Promise<AccessVerdict> | undefined;
  let running: RunningCall | PluginResult | undefined;
  try {
    admitted = admitCall(call, registered);
    // Awaited only when it is a promise: a call without a shared count takes no extra turn.
    if (admitted instanceof Promise) admitted = await admitted;
    if (admitted?.ok === false) {
      call.refused = true;
      return finishCall(state, admitted, call);
    }
    running = startRunning(state, registered, call, options);
    if (!(running instanceof RunningCall)) return finishCall(state, running, call);
    const parent = call.parentExecutionId === undefined ? undefined : state.calls.get(call.parentExecutionId);
    let turn: (() => void) | Promise<() => void> | PluginResult;
    try {
      turn = takeTurn(state.scheduler, registered, call.name, running, parent);
    } catch (error) {
      turn = turnRefused(error);
    }
    if (turn instanceof Promise) turn = await waitForTurn(state, call, turn);
    let outcome: PluginResult;
    if (typeof turn !== "function") outcome = turn;
    else {
      try {
        outcome = await invoke(state, registered, call, call.args as Record<string, unknown>, running, options);
      } finally {
        turn();
      }
    }
    const result = finishCall(state, checkOutput(registered, call.name, outcome, call.timeoutMs!), call);
    // Bounding is for what a model reads: the log, the events and unbounded callers keep the whole value.
    return options.bounded && result.ok ? boundToolResult(result, registered.definition, state.results, call.caller) : result;
  } finally {
    if (running instanceof RunningCall) {
      state.calls.delete(call.executionId);
      running.end();
    }
    if (admitted !== undefined && !(admitted instanceof Promise) && admitted.ok) admitted.release();
    state.host.release(registered);
  }
}

/** A call of a name the registry lacks: a plugin may make it known (an MCP server's tool list fetched late). */
async function callMissing(state: PipelineState, call: CallRecord, name: string, options: ReadCallOptions): Promise<ToolResult> {
  const registered = (await resolveMissingTool(state, name, options, call.caller)) ? state.host.lease(name) : undefined;
  if (!registered) return finishCall(state, missingForCaller(call.caller?.access, name, explainMissingTool(state, name)), call);
  call.registered = registered;
  return runLeased(state, registered, call, options);
}

/** The call up to its lease, without a promise of its own: the checks, the caller, the span; a failure here ends it at once. */
function startCall(state: PipelineState, name: string, args: unknown, options: CallToolOptions): Promise<ToolResult> {
  const { calls, host } = state;
  const call = new CallRecord(displayName(name), args);
  if (typeof name !== "string") return Promise.resolve(finishCall(state, toolError("INVALID_INPUT", `Expected the tool name to be a string, got ${call.name}`), call));
  const read = readCallOptions(options);
  if (!read.ok) return Promise.resolve(finishCall(state, read, call));
  const checked = read.value;
  const parentExecutionId = (call.parentExecutionId = checked.parentExecutionId);
  const parent = parentExecutionId === undefined ? undefined : calls.get(parentExecutionId);
  const access = (call.caller = effectiveCaller(checked.caller, parent?.caller))?.access;
  if (access !== undefined) name = call.name = access.registryName(name);
  // A sub-call's parent span is its parent call's, whatever context the plugin answered from (a code run's runtime is another process).
  call.span = state.telemetry?.start(call.name, call.executionId, parent?.traceContext, checked.toolCallId);
  const registered = host.lease(name);
  if (!registered) return callMissing(state, call, name, checked);
  call.registered = registered;
  return runLeased(state, registered, call, checked);
}

export function createCallPipeline(dependencies: PipelineDependencies): CallPipeline {
  const { host } = dependencies;
  const calls = new Map<string, RunningCall>();
  let closedWith: ToolexecError | undefined;

  // Not async: a call's one async frame is runLeased's (each frame a waiting call keeps costs ~0.4 KB).
  function callTool(name: string, args?: unknown, options: CallToolOptions = {}): Promise<ToolResult> {
    if (closedWith) return Promise.reject(new ToolexecError("EXECUTOR_CLOSED", `Cannot call "${displayName(name)}": the executor is closed`));
    try {
      return startCall(state, name, args, options);
    } catch (error) {
      return Promise.reject(error);
    }
  }
  const state: PipelineState = { ...dependencies, calls, callTool };

  return {
    callTool,
    get underWay() {
      return calls.size;
    },
    telemetry: dependencies.telemetry,
    explainMissing(name) {
      if (host.tools.has(name)) return undefined;
      const missing = explainMissingTool(dependencies, name);
      return missing.ok ? undefined : missing.error;
    },
    callChain(executionId) {
      const chain: string[] = [];
      // Ids are unique and a parent is made before its sub-calls, so the walk ends; the cap is a guard.
      for (let id = calls.get(executionId)?.parentExecutionId; id !== undefined && chain.length < MAX_CALL_CHAIN; id = calls.get(id)?.parentExecutionId) chain.push(id);
      return chain;
    },
    async closeAll(reason) {
      closedWith = reason;
      const under = [...calls.values()];
      const settled = under.map((running) => new Promise<void>((resolve) => (running.onSettled = resolve)));
      for (const running of under) running.abort(reason);
      await Promise.all(settled);
    },
  };
}
