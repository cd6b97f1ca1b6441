/**
 * What hosts send to `executeCode` and get back, and how that maps onto a tool call's envelope.
 *
 * Two shapes on purpose: the library's `CodeResult` uses camelCase like every other result type
 * (`ToolResult`'s `executionId`, `durationMs`); the `code_execution` tool's value — the JSON a model
 * reads — keeps the specification's snake_case fields (`execution_id`, `tool_calls`, `duration_ms`),
 * which the tool's description and prompts written for it refer to.
 */
import type { ErrorCode } from "../../core/errors/error-codes.js";
import type { ToolResult } from "../../core/tool-result.js";
import type { ToolCallTrace } from "./tool-dispatch.js";
import type { CodeExecutionInput } from "./declarations/code-execution-input-schema.js";

/** A request to run code: the `code_execution` tool's arguments. */
export type CodeRequest = CodeExecutionInput;

/** One tool call a run made, in call order. */
export interface CodeToolCall {
  server: string;
  tool: string;
  durationMs: number;
  ok: boolean;
  /** The failure's code, when `ok` is false. */
  errorCode?: string;
}

interface CodeResultBase {
  /** The run's id; its tool calls are logged with it as `parentExecutionId`. */
  executionId: string;
  /** Captured console lines; `warn`, `error`, `info` and `debug` lines start with `[warn] ` etc. */
  logs: string[];
  /** The run's tool calls in the order they were made (at most 1000). */
  toolCalls: CodeToolCall[];
  durationMs: number;
}

/**
 * The result of a run. Branch on `ok`.
 *
 * @example
 * const result = await executor.executeCode({ code: "await tools.local.echo({ a: 1 })" });
 * if (result.ok) console.log(result.value, result.toolCalls);
 * else console.error(result.error.code, result.error.message, result.error.stack);
 */
export type CodeResult =
  | (CodeResultBase & { ok: true; value: unknown })
  | (CodeResultBase & { ok: false; error: { code: ErrorCode; message: string; stack?: string } });

/** The `code_execution` tool's value, as a model reads it (snake_case: the specification's shape). */
export interface CodeExecutionOutput {
  ok: true;
  value: unknown;
  execution_id: string;
  logs: string[];
  tool_calls: ToolCallTrace[];
  duration_ms: number;
}

/** A failed run's extras, carried in the tool envelope's `error.details`. */
export interface CodeFailureDetails {
  stack?: string;
  logs: string[];
  tool_calls: ToolCallTrace[];
  duration_ms: number;
  [key: string]: unknown;
}

const toCodeToolCall = (call: ToolCallTrace): CodeToolCall => ({
  server: call.server,
  tool: call.tool,
  durationMs: call.duration_ms,
  ok: call.ok,
  ...(call.error_code === undefined ? {} : { errorCode: call.error_code }),
});

/**
 * The `CodeResult` inside a `code_execution` tool result: a success carries the run's output as its
 * value, a failure in `error.details`; a call refused before it ran (invalid input, disabled) has neither.
 */
export function toCodeResult(result: ToolResult): CodeResult {
  if (result.ok) {
    const output = result.value as Partial<CodeExecutionOutput> | null;
    if (output !== null && typeof output === "object" && output.ok === true && typeof output.execution_id === "string") {
      return { ok: true, value: output.value, executionId: output.execution_id, logs: output.logs ?? [], toolCalls: (output.tool_calls ?? []).map(toCodeToolCall), durationMs: output.duration_ms ?? result.durationMs };
    }
    return { ok: true, value: result.value, executionId: result.executionId, logs: [], toolCalls: [], durationMs: result.durationMs };
  }
  const details = (result.error.details ?? {}) as Partial<CodeFailureDetails>;
  return {
    ok: false,
    error: { code: result.error.code, message: result.error.message, ...(typeof details.stack === "string" ? { stack: details.stack } : {}) },
    executionId: result.executionId,
    logs: Array.isArray(details.logs) ? details.logs : [],
    toolCalls: Array.isArray(details.tool_calls) ? details.tool_calls.map(toCodeToolCall) : [],
    durationMs: typeof details.duration_ms === "number" ? details.duration_ms : result.durationMs,
  };
}

declare module "../../core/plugin-events.js" {
  interface PluginEvents {
    /** A code run was accepted (its request passed the checks); `code` is its first 500 characters. */
    "code:start": { executionId: string; code: string; inputBytes: number; timeoutMs: number };
    /** Every accepted code run ends with exactly one `code:end`, carrying its result. */
    "code:end": CodeResult;
  }
}
