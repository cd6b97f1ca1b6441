/**
 * One code run on the host, as one object: the request its runtime gets (run-on-runtime.ts reads
 * it as a `RunRequest`), its timings, its tool calls and its end (the result, the statistics the
 * log line takes, `code:end`). One object instead of a closure over a dozen variables, a dispatch
 * closure and an end closure per run: a burst keeps thousands of runs waiting for a runtime.
 */
import { performance } from "node:perf_hooks";
import { CallGroup } from "../../core/executor/call-group.js";
import type { CallToolOptions, PluginResult, ToolErrorInfo } from "../../core/plugin-contract.js";
import { CODE_EXECUTION_TOOL_NAME } from "../../core/tool-names.js";
import { toolError, type ToolResult } from "../../core/tool-result.js";
import type { CodeRunStats } from "./code-log-record.js";
import { toCodeResult, type CodeExecutionOutput, type CodeFailureDetails } from "./code-result.js";
import type { RankTools } from "./declarations/index.js";
import type { Cancellation } from "./call-cancellation.js";
import type { PreparedSource } from "./prepare-source.js";
import type { ResolvedCodeRequest } from "./resolve-code-request.js";
import type { RunError, RunLimits, RunOutcome, RunRequest } from "./run-on-runtime.js";
import type { ToolCatalog } from "./tool-catalog.js";
import { createToolDispatcher, type SandboxEnvelope, type ToolDispatcher } from "./tool-dispatch.js";

/** Runs whose log statistics wait for the execution log; older ones are forgotten. */
export const MAX_PENDING_STATS = 1_000;

/** What every run of a plugin shares: made once per plugin start. */
export interface CodeRunHost {
  /** Statistics for the log line, by execution id; undefined when nothing writes a log (nobody would read them). */
  stats: Map<string, CodeRunStats> | undefined;
  /** Whether the host hears an event (event-listening.ts). */
  hears(event: "code:end"): boolean;
  emit(event: "code:end", payload: ReturnType<typeof toCodeResult>): void;
  explainMissing(name: string): ToolErrorInfo | undefined;
  callTool(name: string, args: unknown, options: CallToolOptions): Promise<ToolResult>;
  stopSignal: AbortSignal;
  rankTools: RankTools | undefined;
  limits: RunLimits;
}

const round = (ms: number) => Math.round(ms * 1000) / 1000;

export class CodeRun implements RunRequest {
  /** Set once its source is prepared (a run whose source does not parse ends before). */
  prepared!: PreparedSource;
  codeLines = 0;
  /** Waiting for a free runtime, then running, in ms. */
  queueMs = 0;
  runMs = 0;
  /** Made on the first tool call: most runs make none, and theirs make neither a dispatcher nor a call group. */
  private dispatcher: ToolDispatcher | undefined = undefined;
  calls: CallGroup | undefined = undefined;
  readonly inputJson: string;
  readonly timeoutMs: number;
  readonly stopSignal: AbortSignal;
  readonly rankTools: RankTools | undefined;
  readonly limits: RunLimits;

  constructor(
    private readonly host: CodeRunHost,
    readonly started: number,
    readonly executionId: string,
    readonly request: ResolvedCodeRequest,
    readonly deadline: number,
    readonly cancellation: Cancellation,
    readonly catalog: ToolCatalog,
  ) {
    this.inputJson = request.inputJson;
    this.timeoutMs = request.timeoutMs;
    this.stopSignal = host.stopSignal;
    this.rankTools = host.rankTools;
    this.limits = host.limits;
  }

  /** Run one tool call the code asked for (tool-dispatch.ts). */
  dispatch(target: unknown, args: unknown): Promise<SandboxEnvelope> {
    if (this.dispatcher === undefined) {
      const { host } = this;
      this.dispatcher = createToolDispatcher({
        catalog: this.catalog,
        policy: this.request.policy,
        executionId: this.executionId,
        group: () => (this.calls ??= new CallGroup()),
        explainMissing: (name) => host.explainMissing(name),
        callTool: (name, toolArgs, callOptions) => host.callTool(name, toolArgs, callOptions),
      });
    }
    return this.dispatcher.dispatch(target, args);
  }

  /** The run's answer, its log statistics kept and `code:end` emitted; `outcome` absent when it never ran. */
  end(result: { ok: true; value: unknown } | { ok: false; error: RunError }, outcome?: RunOutcome): PluginResult {
    const { executionId, request, host } = this;
    const durationMs = round(performance.now() - this.started);
    const logs = outcome?.logs ?? [];
    const trace = this.dispatcher?.trace ?? [];
    const { stats } = host;
    if (stats !== undefined) {
      if (stats.size >= MAX_PENDING_STATS) stats.delete(stats.keys().next().value!);
      stats.set(executionId, { inputBytes: request.inputBytes, queueMs: this.queueMs, runMs: this.runMs, toolCallCount: this.dispatcher?.count() ?? 0, timeoutMs: request.timeoutMs });
    }
    let ended: PluginResult;
    if (result.ok) {
      const output: CodeExecutionOutput = { ok: true, value: result.value, execution_id: executionId, logs, tool_calls: trace, duration_ms: durationMs };
      ended = { ok: true, value: output };
    } else {
      const { stack, ...error } = result.error;
      const details: CodeFailureDetails = { ...(stack === undefined ? {} : { stack }), logs, tool_calls: trace, duration_ms: durationMs };
      ended = toolError(error.code, error.message, details);
    }
    if (host.hears("code:end")) {
      // Not `{ ...ended, executionId, … }`: V8 clones then extends a spread object slowly (~2 µs).
      const envelope: ToolResult = ended.ok ? { ok: true, value: ended.value, executionId, tool: CODE_EXECUTION_TOOL_NAME, durationMs } : { ok: false, error: ended.error, executionId, tool: CODE_EXECUTION_TOOL_NAME, durationMs };
      host.emit("code:end", toCodeResult(envelope));
    }
    return ended;
  }
}
