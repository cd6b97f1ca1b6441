/** What hosts send to `executeCode` and get back, and how that maps onto a tool call's envelope. */
import type { ErrorCode } from "../../core/errors/error-codes.js";
import type { ToolResult } from "../../core/tool-result.js";
import type { ToolCallTrace } from "./tool-dispatch.js";
import type { CodeExecutionInput } from "./declarations/code-execution-input-schema.js";

/** A request to run code: the `code_execution` tool's arguments. */
export type CodeRequest = CodeExecutionInput;

interface CodeResultBase {
  /** The run's id; its tool calls are logged with it as `parentExecutionId`. */
  execution_id: string;
  /** Captured console lines; `warn`, `error`, `info` and `debug` lines start with `[warn] ` etc. */
  logs: string[];
  /** The run's tool calls in the order they were made (at most 1000). */
  tool_calls: ToolCallTrace[];
  duration_ms: number;
}

/**
 * The result of a run. Branch on `ok`.
 *
 * @example
 * const result = await executor.executeCode({ code: "await tools.local.echo({ a: 1 })" });
 * if (result.ok) console.log(result.value, result.tool_calls);
 * else console.error(result.error.code, result.error.message, result.error.stack);
 */
export type CodeResult =
  | (CodeResultBase & { ok: true; value: unknown })
  | (CodeResultBase & { ok: false; error: { code: ErrorCode; message: string; stack?: string } });

/** A failed run's extras, carried in the tool envelope's `error.details`. */
export interface CodeFailureDetails {
  stack?: string;
  logs: string[];
  tool_calls: ToolCallTrace[];
  duration_ms: number;
  [key: string]: unknown;
}

/**
 * The `CodeResult` inside a `code_execution` tool result: a success carries it as its value, a
 * failure in `error.details`; a call refused before it ran (invalid input, disabled) has neither.
 */
export function toCodeResult(result: ToolResult): CodeResult {
  if (result.ok) {
    const value = result.value as Partial<CodeResult> | null;
    if (value !== null && typeof value === "object" && value.ok === true && typeof value.execution_id === "string") return value as CodeResult;
    return { ok: true, value: result.value, execution_id: result.executionId, logs: [], tool_calls: [], duration_ms: result.durationMs };
  }
  const details = (result.error.details ?? {}) as Partial<CodeFailureDetails>;
  return {
    ok: false,
    error: { code: result.error.code, message: result.error.message, ...(typeof details.stack === "string" ? { stack: details.stack } : {}) },
    execution_id: result.executionId,
    logs: Array.isArray(details.logs) ? details.logs : [],
    tool_calls: Array.isArray(details.tool_calls) ? details.tool_calls : [],
    duration_ms: typeof details.duration_ms === "number" ? details.duration_ms : result.durationMs,
  };
}
