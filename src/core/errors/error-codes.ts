/**
 * The stable set of error codes toolexec reports, in results and in thrown errors.
 * `docs/errors.md` explains each one and how to fix it; adding a code is a documented change.
 */
export const ERROR_CODES = [
  "CONFIG_INVALID",
  "CONFIG_MISSING",
  "TOOL_NOT_FOUND",
  "TOOL_NAME_CONFLICT",
  "INVALID_INPUT",
  "INVALID_OUTPUT",
  "TIMEOUT",
  "CANCELLED",
  "TOOL_FAILED",
  "SCRIPT_MISSING",
  "SCRIPT_NOT_ALLOWED",
  "QUEUE_FULL",
  "OUTPUT_TOO_LARGE",
  "HUMAN_INPUT_UNAVAILABLE",
  "EXECUTOR_CLOSED",
  "INVALID_OPTIONS",
  "PLUGIN_FAILED",
  "SERVICE_UNAVAILABLE",
  "SERVER_NOT_ALLOWED",
  "MAX_TOOL_CALLS_EXCEEDED",
  "SYNTAX_ERROR",
  "RUNTIME_ERROR",
  "NOT_SERIALIZABLE",
  "MEMORY_LIMIT",
  "AUTH_FAILED",
  "TOOL_QUARANTINED",
  "AUTH_REQUIRED",
  "CONFLICT",
  "RECURSION_LIMIT",
  "RESULT_NOT_FOUND",
  "FORBIDDEN",
  "RATE_LIMITED",
] as const;

/** One of {@link ERROR_CODES}. */
export type ErrorCode = (typeof ERROR_CODES)[number];
