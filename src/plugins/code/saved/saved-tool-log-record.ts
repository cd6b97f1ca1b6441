/**
 * The execution-log line of a saved tool's call: the pipeline's record (the tool's name, its
 * arguments, its value or error) plus the audit of the code run behind it — its console lines, its
 * tool calls and its timings. The run's tool calls also have their own lines, with this line's
 * `executionId` as `parentExecutionId`, carrying their arguments and results.
 */
import type { CodeRunStats } from "../code-log-record.js";
import type { CodeExecutionOutput, CodeFailureDetails } from "../code-result.js";

const round = (ms: number) => Math.round(ms * 1000) / 1000;

/**
 * @example
 * log.write(shapeSavedToolLogRecord(record, savedRuns.get(record.executionId), stats.get(record.executionId)));
 */
export function shapeSavedToolLogRecord(
  record: Record<string, unknown>,
  run: CodeExecutionOutput | CodeFailureDetails | undefined,
  stats: CodeRunStats | undefined,
): Record<string, unknown> {
  // The management tools (save_tool, ...) and calls refused before running have no run to describe.
  if (run === undefined) return record;
  const { error, ...rest } = record;
  const failure = error !== null && typeof error === "object" ? (error as { code?: unknown; message?: unknown; details?: Partial<CodeFailureDetails> }) : undefined;
  return {
    ...rest,
    ...(failure === undefined
      ? {}
      : { error: { code: failure.code, message: failure.message, ...(typeof failure.details?.stack === "string" ? { stack: failure.details.stack } : {}) } }),
    logs: run.logs,
    toolCalls: run.tool_calls.map((call) => ({ server: call.server, tool: call.tool, durationMs: call.duration_ms, ok: call.ok, ...(call.error_code === undefined ? {} : { errorCode: call.error_code }) })),
    toolCallCount: stats?.toolCallCount ?? run.tool_calls.length,
    runDurationMs: run.duration_ms,
    ...(stats === undefined ? {} : { queueMs: round(stats.queueMs), runMs: round(stats.runMs) }),
  };
}
