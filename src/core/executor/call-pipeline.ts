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
import type { ResultBounds } from "../results/bound-result.js";
import { displayName, readCallOptions, snapshotArguments } from "./call-input.js";
import { checkInput } from "./call-schema-checks.js";
import { explainMissingTool, resolveMissingTool } from "./missing-tool.js";
import { admitCall, effectiveCaller, missingForCaller } from "./caller-access.js";
import { CallRecord, finishCall } from "./call-record.js";
import type { AccessVerdict } from "../caller-info.js";
import type { Scheduler } from "../schedule/scheduler.js";
import { RunningCall } from "./running-call.js";
import { createPluginCallOptions } from "./plugin-call-options.js";
import { takeTurn } from "./take-turn.js";
import type { ExecutorEvents } from "./executor-events.js";
import type { PluginHost } from "./plugin-host.js";

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
function invoke(state: PipelineState, call: CallRecord, running: RunningCall): Promise<ToolResult> {
  const { owner } = call.registered!;
  const options = call.options!;
  const callArguments = call.args as Record<string, unknown>;
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
  return running.answer(owner.name, call.span === undefined ? start : () => runInSpan(call.span!, start), call);
}

/** A turn on the scheduler for a call that waits: the release function, or the call's end when it was cancelled first. */
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
function startRunning(state: PipelineState, call: CallRecord): PluginResult | RunningCall {
  const { name, executionId, parentExecutionId } = call;
  const registered = call.registered!;
  const options = call.options!;
  const snapshot = snapshotArguments(name, call.args);
  if (!snapshot.ok) return snapshot;
  const callArguments = (call.args = snapshot.value);
  const invalid = checkInput(registered, name, callArguments);
  if (invalid) return invalid;
  const timeoutMs = (call.timeoutMs = options.timeoutMs ?? registered.definition.timeoutMs ?? state.defaultTimeoutMs);
  const running = (call.running = new RunningCall(name, timeoutMs, options.signal, options.group));
  running.caller = call.caller;
  running.parentExecutionId = parentExecutionId;
  running.traceContext = call.span?.context;
  state.calls.set(executionId, running);
  const { emitter } = state;
  if (emitter.hasListeners("tool:start")) emitter.emit("tool:start", parentExecutionId === undefined ? { executionId, tool: name, arguments: callArguments } : { executionId, tool: name, arguments: callArguments, parentExecutionId });
  return running;
}

/** The plugin's call once a waiting call's turn came (or its end, when it was cancelled first). */
async function invokeAfterWait(state: PipelineState, call: CallRecord, running: RunningCall, turn: Promise<() => void>): Promise<ToolResult> {
  const waited = await waitForTurn(state, call, turn);
  if (typeof waited !== "function") return call.complete(waited);
  call.releaseTurn = waited;
  try {
    return await invoke(state, call, running);
  } catch (error) {
    call.letGo();
    throw error;
  }
}

/**
 * An admitted call: input checks, a turn, then the plugin's call under its deadline, whose answer
 * ends the call (CallRecord.complete). No promise of its own unless it waits for a turn.
 */
function runAdmitted(state: PipelineState, call: CallRecord): Promise<ToolResult> {
  try {
    const running = startRunning(state, call);
    if (!(running instanceof RunningCall)) {
      const failed = call.end(running);
      call.letGo();
      return Promise.resolve(failed);
    }
    const parent = call.parentExecutionId === undefined ? undefined : state.calls.get(call.parentExecutionId);
    let turn: (() => void) | Promise<() => void> | PluginResult;
    try {
      turn = takeTurn(state.scheduler, call.registered!, call.name, running, parent);
    } catch (error) {
      turn = turnRefused(error);
    }
    if (turn instanceof Promise) return invokeAfterWait(state, call, running, turn);
    if (typeof turn !== "function") return Promise.resolve(call.complete(turn));
    call.releaseTurn = turn;
    return invoke(state, call, running);
  } catch (error) {
    call.letGo();
    return Promise.reject(error);
  }
}

/** A leased call under a caller's access (a served caller): admitted first, or refused unrun; its admission is released when it ends. */
async function runWithAdmission(state: PipelineState, call: CallRecord, admitted: AccessVerdict | Promise<AccessVerdict>): Promise<ToolResult> {
  let verdict: AccessVerdict;
  try {
    // Awaited only when it is a promise: a call without a shared count takes no extra turn.
    verdict = admitted instanceof Promise ? await admitted : admitted;
  } catch (error) {
    call.letGo();
    throw error;
  }
  if (!verdict.ok) {
    call.refused = true;
    try {
      return finishCall(state, verdict, call);
    } finally {
      call.letGo();
    }
  }
  try {
    return await runAdmitted(state, call);
  } finally {
    verdict.release();
  }
}

/** A leased call: the caller's access asked when there is one (nearly never), then the call. */
function runLeased(state: PipelineState, call: CallRecord): Promise<ToolResult> {
  let admitted: AccessVerdict | Promise<AccessVerdict> | undefined;
  try {
    admitted = admitCall(call, call.registered!);
  } catch (error) {
    call.letGo();
    throw error;
  }
  return admitted === undefined ? runAdmitted(state, call) : runWithAdmission(state, call, admitted);
}

/** A call of a name the registry lacks: a plugin may make it known (an MCP server's tool list fetched late). */
async function callMissing(state: PipelineState, call: CallRecord, name: string): Promise<ToolResult> {
  const registered = (await resolveMissingTool(state, name, call.options!, call.caller)) ? state.host.lease(name) : undefined;
  if (!registered) return finishCall(state, missingForCaller(call.caller?.access, name, explainMissingTool(state, name)), call);
  call.lease(registered);
  return runLeased(state, call);
}

/** The call up to its lease, without a promise of its own: the checks, the caller, the span; a failure here ends it at once. */
function startCall(state: PipelineState, name: string, args: unknown, options: CallToolOptions): Promise<ToolResult> {
  const { calls, host } = state;
  const call = new CallRecord(state, displayName(name), args);
  if (typeof name !== "string") return Promise.resolve(finishCall(state, toolError("INVALID_INPUT", `Expected the tool name to be a string, got ${call.name}`), call));
  const read = readCallOptions(options);
  if (!read.ok) return Promise.resolve(finishCall(state, read, call));
  const checked = (call.options = read.value);
  const parentExecutionId = (call.parentExecutionId = checked.parentExecutionId);
  const parent = parentExecutionId === undefined ? undefined : calls.get(parentExecutionId);
  const access = (call.caller = effectiveCaller(checked.caller, parent?.caller))?.access;
  if (access !== undefined) name = call.name = access.registryName(name);
  // A sub-call's parent span is its parent call's, whatever context the plugin answered from (a code run's runtime is another process).
  call.span = state.telemetry?.start(call.name, call.executionId, parent?.traceContext, checked.toolCallId);
  const registered = host.lease(name);
  if (!registered) return callMissing(state, call, name);
  call.lease(registered);
  return runLeased(state, call);
}

export function createCallPipeline(dependencies: PipelineDependencies): CallPipeline {
  const { host } = dependencies;
  const calls = new Map<string, RunningCall>();
  let closedWith: ToolexecError | undefined;

  // Not async: a call under way keeps no async frame of the pipeline's (each costs a waiting call ~0.4 KB).
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
