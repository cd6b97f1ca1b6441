/**
 * The execution-log line of a code run (DESIGN §9): the pipeline's record for the
 * `code_execution` call, reshaped so it carries the first 500 characters of the code instead of
 * all of it, the input's size instead of the input, each tool call, the outcome and the timings.
 * The run's own tool calls have their own lines, with this line's `executionId` as `parentExecutionId`.
 */
import type { CodeExecutionOutput, CodeFailureDetails } from "./code-result.js";

/** How much of the code a log line keeps. */
export const LOGGED_CODE_CHARS = 500;

/** What the plugin measured about a run, beyond its result. */
export interface CodeRunStats {
  inputBytes: number;
  /** Waiting for a free runtime. */
  queueMs: number;
  /** From sending the code to its result. */
  runMs: number;
  /** Calls made, including those past the trace's cap. */
  toolCallCount: number;
  /** The run's own budget (the pipeline's record has the tool's, which is larger). */
  timeoutMs: number;
}

const round = (ms: number) => Math.round(ms * 1000) / 1000;

/**
 * @example
 * log.write(shapeCodeLogRecord(record, stats.get(record.executionId)));
 */
export function shapeCodeLogRecord(record: Record<string, unknown>, stats: CodeRunStats | undefined): Record<string, unknown> {
  const { arguments: args, value, error, durationMs, timeoutMs, ...rest } = record;
  const { code, input, options } = (args ?? {}) as { code?: unknown; input?: unknown; options?: unknown };
  const envelope = value !== null && typeof value === "object" ? (value as CodeExecutionOutput) : undefined;
  const failure = error !== null && typeof error === "object" ? (error as { code?: unknown; message?: unknown; details?: Partial<CodeFailureDetails> }) : undefined;
  const toolCalls = envelope?.tool_calls ?? failure?.details?.tool_calls ?? [];
  const logs = envelope?.logs ?? failure?.details?.logs ?? [];
  let inputBytes = stats?.inputBytes;
  if (inputBytes === undefined) {
    try {
      inputBytes = Buffer.byteLength(JSON.stringify(input ?? null) ?? "", "utf8");
    } catch {
      inputBytes = undefined;
    }
  }
  return {
    ...rest,
    code: typeof code === "string" ? code.slice(0, LOGGED_CODE_CHARS) : code,
    ...(typeof code === "string" && code.length > LOGGED_CODE_CHARS ? { codeLength: code.length } : {}),
    inputBytes,
    ...(options === undefined ? {} : { options }),
    ...(envelope === undefined ? {} : { value: envelope.value }),
    ...(failure === undefined
      ? {}
      : { error: { code: failure.code, message: failure.message, ...(typeof failure.details?.stack === "string" ? { stack: failure.details.stack } : {}) } }),
    toolCalls: toolCalls.map((call) => ({ server: call.server, tool: call.tool, durationMs: call.duration_ms, ok: call.ok })),
    toolCallCount: stats?.toolCallCount ?? toolCalls.length,
    logLines: logs.length,
    durationMs,
    ...(stats === undefined ? {} : { queueMs: round(stats.queueMs), runMs: round(stats.runMs) }),
    ...(stats === undefined && timeoutMs === undefined ? {} : { timeoutMs: stats?.timeoutMs ?? timeoutMs }),
  };
}
