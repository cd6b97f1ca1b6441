/** The result envelope every call resolves to, from any plugin, the CLI or sandboxed code. */
import type { ErrorCode } from "./errors/error-codes.js";
import type { ToolErrorInfo } from "./plugin-contract.js";
import type { TruncatedResult } from "./results/result-budget.js";

interface ResultBase {
  /** Unique per call; the key of the call's line in the execution log. */
  executionId: string;
  tool: string;
  /** From arrival to answer, queueing included. */
  durationMs: number;
}

/** A successful call: `value` is the unwrapped result; `content` the raw one where a plugin has it. */
export interface ToolSuccess extends ResultBase {
  ok: true;
  value: unknown;
  content?: unknown;
  /**
   * Present only when the plugin saw something that makes `value` doubtful though the call
   * succeeded, e.g. text before a script's JSON (the value is then that text). Also in the log.
   */
  warnings?: string[];
  /**
   * Present only on a bounded call's result whose value was over the budget: `value` is then the
   * cut value (`content` is left out) and this says what a model reads and where the rest is.
   */
  truncated?: TruncatedResult;
}

/** A failed call: `error.code` is one of the documented codes. */
export interface ToolFailure extends ResultBase {
  ok: false;
  error: ToolErrorInfo;
}

/**
 * What `executor.callTool` resolves to. Branch on `ok`; it never throws for a fault of the call.
 *
 * @example
 * const result = await executor.callTool("unit_convert", { value: 10, from: "km", to: "mi" });
 * if (result.ok) console.log(result.value); else console.error(result.error.code, result.error.message);
 */
export type ToolResult = ToolSuccess | ToolFailure;

/** Build the error part of a result. */
export function toolError(code: ErrorCode, message: string, details?: Record<string, unknown>): { ok: false; error: ToolErrorInfo } {
  return details === undefined ? { ok: false, error: { code, message } } : { ok: false, error: { code, message, details } };
}
