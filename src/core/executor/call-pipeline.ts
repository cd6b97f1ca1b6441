/**
 * The one path every call takes, from the host, the CLI or a plugin: resolve → snapshot and
 * validate input → schedule → plugin call under deadline and signal → validate output → envelope →
 * log → events. The pipeline owns call tracking: `close()` aborts every call under way through it
 * and waits for all of them to settle (their log records written).
 */
import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import { ToolexecError, isToolexecError } from "../errors/toolexec-error.js";
import type { Emitter } from "../events.js";
import type { ExecutionLog } from "../log/execution-log.js";
import type { CallerInfo, CallToolOptions, ExecutionRecord, PluginResult, ToolErrorInfo } from "../plugin-contract.js";
import type { CallSpan, CallTelemetry } from "../telemetry/call-telemetry.js";
import { runInSpan, spanIds } from "../telemetry/span-context.js";
import { toolError, type ToolResult } from "../tool-result.js";
import { boundToolResult, type ResultBounds } from "../results/bound-result.js";
import { displayName, readCallOptions, snapshotArguments, type ReadCallOptions } from "./call-input.js";
import { checkInput, checkOutput } from "./call-schema-checks.js";
import { explainMissingTool, resolveMissingTool } from "./missing-tool.js";
import { callerRecord, effectiveCaller, missingForCaller, withAdmission } from "./caller-access.js";
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

/** One call as it goes: what its end (envelope, log record, events) is made of. */
interface CallRecord {
  name: string;
  args: unknown;
  executionId: string;
  startedAt: number;
  started: number;
  parentExecutionId: string | undefined;
  registered?: RegisteredTool;
  timeoutMs?: number;
  caller?: CallerInfo;
  /** The caller's access refused the call. */
  refused?: boolean;
  /** The call's `execute_tool` span, when someone traces. */
  span?: CallSpan;
  /** How long the call waited for a turn, in ms; unset when it started at once. */
  queueMs?: number;
}

/** What the steps of a call share: the dependencies, the calls under way, and the pipeline's own `callTool` (for sub-calls). */
interface PipelineState extends PipelineDependencies {
  calls: Map<string, RunningCall>;
  callTool: CallTool;
}

/** Envelope, log record and events: the end of every call, whatever happened. */
function finish(dependencies: PipelineDependencies, outcome: PluginResult, call: CallRecord): ToolResult {
  const { name, executionId, parentExecutionId } = call;
  const { emitter, log } = dependencies;
  const durationMs = Math.round((performance.now() - call.started) * 1000) / 1000;
  const result: ToolResult = outcome.ok
    ? {
        ok: true,
        value: outcome.value,
        ...(outcome.content === undefined ? {} : { content: outcome.content }),
        ...(outcome.warnings?.length ? { warnings: outcome.warnings } : {}),
        executionId,
        tool: name,
        durationMs,
      }
    : { ok: false, error: outcome.error, executionId, tool: name, durationMs };
  // The log first: a span that has ended no longer says it records, and the record takes its ids.
  if (log) writeRecord(log, dependencies.host, call, result, durationMs);
  dependencies.telemetry?.end(call.span, result, call.registered?.owner.name, call.args);
  // Payloads are built only for events someone listens to: most hosts listen to few.
  const ending = emitter.hasListeners("tool:end");
  const failing = !result.ok && emitter.hasListeners("tool:error");
  if (ending || failing) {
    const event = parentExecutionId === undefined ? result : { ...result, parentExecutionId };
    if (ending) emitter.emit("tool:end", event);
    if (failing) emitter.emit("tool:error", event as ToolResult & { ok: false });
  }
  return result;
}

/** The call's execution record, shaped by the plugin that ran it, handed to the log. */
function writeRecord(log: ExecutionLog, host: PluginHost, call: CallRecord, result: ToolResult, durationMs: number): void {
  const { name, executionId, parentExecutionId } = call;
  const record: ExecutionRecord = {
    time: new Date(call.startedAt).toISOString(),
    executionId,
    ...(parentExecutionId === undefined ? {} : { parentExecutionId }),
    tool: name,
    plugin: call.registered?.owner.name ?? null,
    arguments: call.args ?? null,
    ok: result.ok,
    ...(result.ok ? { value: result.value, ...(result.warnings ? { warnings: result.warnings } : {}) } : { error: result.error }),
    durationMs,
    ...(call.queueMs === undefined ? {} : { queueMs: call.queueMs }),
    ...(call.timeoutMs === undefined ? {} : { timeoutMs: call.timeoutMs }),
    ...callerRecord(call.caller, result, call.refused === true),
    ...(call.span === undefined ? {} : spanIds(call.span.span)),
  };
  let shaped: Record<string, unknown> = record;
  // The owner is the instance that ran the call, even when the executor has closed it since.
  const shape = call.registered?.owner.instance.shapeLogRecord;
  if (shape) {
    try {
      shaped = shape.call(call.registered!.owner.instance, record);
    } catch {
      shaped = record;
    }
  }
  log.write(shaped, host.secrets());
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

/** A turn, then the plugin's call; a call cancelled before it began takes no slot and never reaches the plugin. */
async function runInTurn(state: PipelineState, registered: RegisteredTool, call: CallRecord, callArguments: Record<string, unknown>, running: RunningCall, options: CallToolOptions): Promise<PluginResult> {
  let release: () => void;
  try {
    const parent = call.parentExecutionId === undefined ? undefined : state.calls.get(call.parentExecutionId);
    const turn = takeTurn(state.scheduler, registered, call.name, running, parent);
    if (typeof turn === "function") release = turn;
    else {
      const waitStarted = performance.now();
      release = await turn;
      const waitedMs = performance.now() - waitStarted;
      state.telemetry?.recordQueueWait(call.name, waitedMs / 1000);
      // Logged only for calls that waited, so `toolexec logs` can show queue waits at no cost to the rest.
      call.queueMs = Math.round(waitedMs * 1000) / 1000;
    }
  } catch (error) {
    const fault = isToolexecError(error) ? error : new ToolexecError("CANCELLED", String(error));
    return toolError(fault.code, fault.message, fault.details);
  }
  try {
    return await invoke(state, registered, call, callArguments, running, options);
  } finally {
    release();
  }
}

/** A leased tool's call: input snapshot and check, then the run under its deadline, then the output check and the end. */
async function runRegistered(state: PipelineState, registered: RegisteredTool, call: CallRecord, options: ReadCallOptions): Promise<ToolResult> {
  const { name, executionId, parentExecutionId } = call;
  const snapshot = snapshotArguments(name, call.args);
  if (!snapshot.ok) return finish(state, snapshot, call);
  const callArguments = (call.args = snapshot.value);
  const invalid = checkInput(registered, name, callArguments);
  if (invalid) return finish(state, invalid, call);

  const timeoutMs = (call.timeoutMs = options.timeoutMs ?? registered.definition.timeoutMs ?? state.defaultTimeoutMs);
  const running = new RunningCall(name, timeoutMs, options.signal, options.group);
  running.caller = call.caller;
  running.parentExecutionId = parentExecutionId;
  running.traceContext = call.span?.context;
  state.calls.set(executionId, running);
  const { emitter } = state;
  if (emitter.hasListeners("tool:start")) emitter.emit("tool:start", parentExecutionId === undefined ? { executionId, tool: name, arguments: callArguments } : { executionId, tool: name, arguments: callArguments, parentExecutionId });
  try {
    const outcome = await runInTurn(state, registered, call, callArguments, running, options);
    return finish(state, checkOutput(registered, name, outcome, timeoutMs), call);
  } finally {
    state.calls.delete(executionId);
    running.end();
  }
}

export function createCallPipeline(dependencies: PipelineDependencies): CallPipeline {
  const { host } = dependencies;
  const calls = new Map<string, RunningCall>();
  let closedWith: ToolexecError | undefined;

  async function callTool(name: string, args?: unknown, options: CallToolOptions = {}): Promise<ToolResult> {
    if (closedWith) throw new ToolexecError("EXECUTOR_CLOSED", `Cannot call "${displayName(name)}": the executor is closed`);
    const call: CallRecord = { name: displayName(name), args, executionId: randomUUID(), startedAt: Date.now(), started: performance.now(), parentExecutionId: undefined };
    if (typeof name !== "string") return finish(dependencies, toolError("INVALID_INPUT", `Expected the tool name to be a string, got ${call.name}`), call);
    const read = readCallOptions(options);
    if (!read.ok) return finish(dependencies, read, call);
    options = read.value;
    const parentExecutionId = (call.parentExecutionId = options.parentExecutionId);
    const parent = parentExecutionId === undefined ? undefined : calls.get(parentExecutionId);
    const access = (call.caller = effectiveCaller(options.caller, parent?.caller))?.access;
    if (access !== undefined) name = call.name = access.registryName(name);
    // A sub-call's parent span is its parent call's, whatever context the plugin answered from (a code run's runtime is another process).
    call.span = dependencies.telemetry?.start(call.name, call.executionId, parent?.traceContext, options.toolCallId);
    let registered = host.lease(name);
    if (!registered && (await resolveMissingTool(dependencies, name, options, call.caller))) registered = host.lease(name);
    if (!registered) return finish(dependencies, missingForCaller(access, name, explainMissingTool(dependencies, name)), call);
    const leased = (call.registered = registered);
    try {
      return await withAdmission(call, leased, (refusal) => finish(dependencies, refusal, call), async () => {
        const result = await runRegistered(state, leased, call, read.value);
        // Bounding is for what a model reads: the log, the events and unbounded callers keep the whole value.
        return options.bounded && result.ok ? boundToolResult(result, leased.definition, dependencies.results, call.caller) : result;
      });
    } finally {
      host.release(leased);
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
