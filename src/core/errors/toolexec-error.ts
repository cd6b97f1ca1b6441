/** The one base class of every error toolexec throws, recognisable across realms. */
import type { ErrorCode } from "./error-codes.js";

const MARKER = Symbol.for("toolexec.error");

export interface ToolexecErrorOptions {
  details?: Record<string, unknown>;
  cause?: unknown;
}

/**
 * Thrown only for host or programmer faults (bad options, invalid config at start-up, use after
 * `close()`); faults of a tool call come back as `{ ok: false }` results instead.
 *
 * @example
 * try { await createExecutor({ root }) } catch (error) {
 *   if (isToolexecError(error) && error.code === "CONFIG_INVALID") console.error(error.message);
 * }
 */
export class ToolexecError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, message: string, options: ToolexecErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ToolexecError";
    this.code = code;
    this.details = options.details;
    Object.defineProperty(this, MARKER, { value: true });
  }
}

/**
 * True for any toolexec error, including one made in another realm (a `vm` context) or by another
 * copy of the package. An error cloned through `postMessage`/`structuredClone` loses the marker
 * (and `code`): send `{ code, message, details }` across threads instead.
 *
 * @example
 * try {
 *   await executor.callTool("echo", {});
 * } catch (error) {
 *   if (isToolexecError(error) && error.code === "EXECUTOR_CLOSED") console.warn("closed already");
 *   else throw error;
 * }
 */
export function isToolexecError(value: unknown): value is ToolexecError {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[MARKER] === true;
}
