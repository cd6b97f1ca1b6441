/**
 * A call's record as the pipeline fills it in, and its end: the envelope, the execution log's
 * record (shaped by the plugin that ran it) and the events, whatever happened.
 */
import { newExecutionId } from "./execution-id.js";
import { performance } from "node:perf_hooks";
import type { CallerInfo, ExecutionRecord, PluginResult } from "../plugin-contract.js";
import type { ExecutionLog } from "../log/execution-log.js";
import type { CallSpan } from "../telemetry/call-telemetry.js";
import { spanIds } from "../telemetry/span-context.js";
import type { ToolResult } from "../tool-result.js";
import { callerRecord } from "./caller-access.js";
import type { PipelineDependencies } from "./call-pipeline.js";
import type { ReadCallOptions } from "./call-input.js";
import { checkOutput } from "./call-schema-checks.js";
import type { CallCompletion, RunningCall } from "./running-call.js";
import { boundToolResult } from "../results/bound-result.js";

/** What a call's end takes from the pipeline: where it logs, tells and bounds, and the calls under way it leaves. */
export type CallEndDependencies = Pick<PipelineDependencies, "emitter" | "log" | "host" | "telemetry" | "results"> & { calls: Map<string, RunningCall> };
import type { PluginHost, RegisteredTool } from "./plugin-host.js";

/**
 * One call as the pipeline runs it: what its end (envelope, log record, events) is made of, and
 * what it holds until it ends (its lease, its turn, its running state). A class whose fields are
 * all set at once, so the record is one object that never changes shape as the call goes. It is
 * the plugin answer's completion (running-call.ts): a call under way keeps no async frame of the
 * pipeline's, since the answer's promise is the caller's.
 */
export class CallRecord implements CallCompletion<ToolResult> {
  parentExecutionId: string | undefined = undefined;
  registered: RegisteredTool | undefined = undefined;
  timeoutMs: number | undefined = undefined;
  caller: CallerInfo | undefined = undefined;
  /** The caller's access refused the call. */
  refused = false;
  /** The call's `execute_tool` span, when someone traces. */
  span: CallSpan | undefined = undefined;
  /** How long the call waited for a turn, in ms; unset when it started at once. */
  queueMs: number | undefined = undefined;
  readonly startedAt = Date.now();
  readonly started = performance.now();
  readonly executionId = newExecutionId();
  options: ReadCallOptions | undefined = undefined;
  running: RunningCall | undefined = undefined;
  releaseTurn: (() => void) | undefined = undefined;
  private leased = false;

  constructor(
    private readonly state: CallEndDependencies,
    public name: string,
    public args: unknown,
  ) {}

  lease(registered: RegisteredTool): void {
    this.registered = registered;
    this.leased = true;
  }

  /** The plugin's answer (or a refused turn), checked, as the call's end; the call lets go of what it holds. */
  complete(outcome: PluginResult): ToolResult {
    this.releaseTurnOnce();
    try {
      return this.end(checkOutput(this.registered!, this.name, outcome, this.timeoutMs!));
    } finally {
      this.letGo();
    }
  }

  /** The call's end, bounded for a bounded caller: the log, the events and unbounded callers keep the whole value. */
  end(outcome: PluginResult): ToolResult {
    const result = finishCall(this.state, outcome, this);
    return this.options?.bounded && result.ok ? boundToolResult(result, this.registered!.definition, this.state.results, this.caller) : result;
  }

  /** Give back the turn, the running state and the lease; once, whatever calls it. */
  letGo(): void {
    this.releaseTurnOnce();
    const { running, state } = this;
    if (running !== undefined) {
      this.running = undefined;
      state.calls.delete(this.executionId);
      running.end();
    }
    if (this.leased) {
      this.leased = false;
      state.host.release(this.registered!);
    }
  }

  private releaseTurnOnce(): void {
    const release = this.releaseTurn;
    this.releaseTurn = undefined;
    release?.();
  }
}

/** Envelope, log record and events: the end of every call, whatever happened. */
export function finishCall(dependencies: Pick<PipelineDependencies, "emitter" | "log" | "host" | "telemetry">, outcome: PluginResult, call: CallRecord): ToolResult {
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
    ...callerRecord(call.caller, result, call.refused),
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
