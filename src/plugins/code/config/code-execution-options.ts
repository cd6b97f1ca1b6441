/** Code mode's settings, merged once from tools.json and the executor option into named defaults. */
import {
  DEFAULT_CODE_MAX_CODE_BYTES,
  DEFAULT_CODE_MAX_LOG_BYTES,
  DEFAULT_CODE_MAX_QUEUE,
  DEFAULT_CODE_MAX_RESULT_BYTES,
  DEFAULT_CODE_MAX_TOOL_CALLS,
  DEFAULT_CODE_MEMORY_LIMIT_MB,
  DEFAULT_CODE_POOL_SIZE,
  DEFAULT_CODE_TIMEOUT_MS,
  DEFAULT_MAX_SAVED_TOOL_DEPTH,
} from "./code-execution-limits.js";
import type { CodeExecutionConfig } from "./code-execution-config-schema.js";

/** Every setting of code mode, with defaults applied. Plain JSON: the executor compares it to decide on a restart. */
export interface ResolvedCodeExecutionOptions {
  enabled: boolean;
  /** Budget of a run whose request names none. */
  timeoutMs: number;
  /** Largest `timeout_ms` a request may ask for; never below `timeoutMs`. */
  maxTimeoutMs: number;
  /** Ceiling and default of `max_tool_calls`; 0 is unlimited. */
  maxToolCalls: number;
  /** Servers code may call; `null` allows every server. */
  allowedServers: string[] | null;
  excludeTools: string[];
  /** List only `code_execution` and the excluded tools to the model (a listing policy, not access control). */
  listOnlyCodeExecution: boolean;
  /** Start one runtime (and warm the host side) in the background at start. */
  prewarm: boolean;
  poolSize: number;
  maxQueue: number;
  memoryLimitMb: number;
  maxResultBytes: number;
  maxLogBytes: number;
  maxCodeBytes: number;
  /** Undefined: the description generator's default. */
  maxDescriptionBytes: number | undefined;
  /** Offer `save_tool` and `delete_saved_tool` to models. */
  allowSavingTools: boolean;
  /** Saved tools that may run inside each other in one chain of calls. */
  maxSavedToolDepth: number;
}

/**
 * Merge the project's `codeExecution` (tools.json) with the host's option: each key the option sets
 * wins. When the merge puts `timeoutMs` above the file's `maxTimeoutMs`, the ceiling rises to it:
 * the host asked for that default explicitly.
 *
 * @example
 * resolveCodeExecutionOptions({ enabled: true, maxToolCalls: 20 }, { timeoutMs: 10_000 });
 * // { enabled: true, timeoutMs: 10000, maxTimeoutMs: 10000, maxToolCalls: 20, ... }
 */
export function resolveCodeExecutionOptions(
  fromConfig: CodeExecutionConfig | undefined,
  fromOptions: CodeExecutionConfig | undefined,
): ResolvedCodeExecutionOptions {
  const merged: CodeExecutionConfig = { ...fromConfig };
  for (const [key, value] of Object.entries(fromOptions ?? {})) {
    if (value !== undefined) (merged as Record<string, unknown>)[key] = value;
  }
  // A ceiling set alone lowers the default with it.
  const timeoutMs = merged.timeoutMs ?? Math.min(DEFAULT_CODE_TIMEOUT_MS, merged.maxTimeoutMs ?? DEFAULT_CODE_TIMEOUT_MS);
  return {
    enabled: merged.enabled ?? false,
    timeoutMs,
    maxTimeoutMs: Math.max(merged.maxTimeoutMs ?? timeoutMs, timeoutMs),
    maxToolCalls: merged.maxToolCalls ?? DEFAULT_CODE_MAX_TOOL_CALLS,
    allowedServers: merged.allowedServers === undefined ? null : [...new Set(merged.allowedServers)],
    excludeTools: [...new Set(merged.excludeTools ?? [])],
    listOnlyCodeExecution: merged.listOnlyCodeExecution ?? false,
    prewarm: merged.prewarm ?? true,
    poolSize: merged.poolSize ?? DEFAULT_CODE_POOL_SIZE,
    maxQueue: merged.maxQueue ?? DEFAULT_CODE_MAX_QUEUE,
    memoryLimitMb: merged.memoryLimitMb ?? DEFAULT_CODE_MEMORY_LIMIT_MB,
    maxResultBytes: merged.maxResultBytes ?? DEFAULT_CODE_MAX_RESULT_BYTES,
    maxLogBytes: merged.maxLogBytes ?? DEFAULT_CODE_MAX_LOG_BYTES,
    maxCodeBytes: merged.maxCodeBytes ?? DEFAULT_CODE_MAX_CODE_BYTES,
    maxDescriptionBytes: merged.maxDescriptionBytes,
    allowSavingTools: merged.allowSavingTools ?? true,
    maxSavedToolDepth: merged.maxSavedToolDepth ?? DEFAULT_MAX_SAVED_TOOL_DEPTH,
  };
}
