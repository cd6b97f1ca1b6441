/**
 * Code mode's defaults and bounds, and the one check its schema cannot make, in a module without
 * zod: the section, the options and the runtime read them without loading the schema.
 */
import os from "node:os";

export const DEFAULT_CODE_TIMEOUT_MS = 120_000;
/** 0 means unlimited. */
export const DEFAULT_CODE_MAX_TOOL_CALLS = 0;
/**
 * One runtime per CPU core the process may use, at most the specification's 10: a runtime running
 * code uses a whole core, so more only add context switches (2 cores, runtimes warm: 0.14-0.15 ms
 * of runtime CPU per trivial execution at 2 runtimes, 0.23-0.26 ms at 10; bench/code-execution.mjs).
 */
export const DEFAULT_CODE_POOL_SIZE = Math.max(1, Math.min(os.availableParallelism(), 10));
export const DEFAULT_CODE_MAX_QUEUE = 100;
export const DEFAULT_CODE_MEMORY_LIMIT_MB = 256;
export const DEFAULT_CODE_MAX_RESULT_BYTES = 1024 * 1024;
export const DEFAULT_CODE_MAX_LOG_BYTES = 64 * 1024;
export const DEFAULT_CODE_MAX_CODE_BYTES = 256 * 1024;
/** Saved tools running inside each other in one chain of calls before the next is refused (RECURSION_LIMIT). */
export const DEFAULT_MAX_SAVED_TOOL_DEPTH = 8;
/** The smallest heap a runtime can lock down and run in. */
export const MIN_CODE_MEMORY_LIMIT_MB = 32;
/** Room left under setTimeout's ceiling for the executor's own grace around a code run. */
export const MAX_CODE_TIMEOUT_MS = 2_147_000_000;

/** A `timeoutMs` above `maxTimeoutMs` in one object, as a message; undefined when consistent. */
export function timeoutCeilingProblem(config: { timeoutMs?: number; maxTimeoutMs?: number }): string | undefined {
  if (config.timeoutMs === undefined || config.maxTimeoutMs === undefined || config.maxTimeoutMs >= config.timeoutMs) return undefined;
  return `Expected maxTimeoutMs to be at least timeoutMs (${config.timeoutMs}), got ${config.maxTimeoutMs}`;
}
