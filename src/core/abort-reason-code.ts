/** The error code an aborted signal carries: the pipeline aborts with a `ToolexecError` naming why. */
import type { ErrorCode } from "./errors/error-codes.js";

/** The error code carried by an aborted signal's reason, if it is one of ours. */
export function abortReasonCode(signal: AbortSignal): ErrorCode {
  const reason = signal.reason as { code?: unknown } | undefined;
  return typeof reason?.code === "string" ? (reason.code as ErrorCode) : "CANCELLED";
}
