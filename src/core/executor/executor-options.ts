/**
 * The core's options of `createExecutor`, checked once and resolved into `ResolvedExecutorOptions`
 * with named defaults. The composition root adds the built-in plugins' options to the same strict
 * schema, so an unknown key is refused wherever it was meant to go. The zod schemas are in
 * core-option-schemas.ts, loaded only for options the fast check (well-formed-core-options.ts)
 * does not vouch for.
 */
import path from "node:path";
import { DEFAULT_TIMEOUT_MS } from "../config/timeout-limits.js";
import { ToolexecError } from "../errors/toolexec-error.js";
import { checkContractVersion } from "./check-contract-version.js";
import { DEFAULT_LOG_INTERVAL, DEFAULT_LOG_MAX_FILES, DEFAULT_LOG_MAX_VALUE_BYTES } from "../log/execution-log.js";
import { DEFAULT_REDACT_KEYS } from "../log/redact.js";
import type { ExecutorPlugin, Logger } from "../plugin-contract.js";
import { DEFAULT_RESULT_STORE_MAX_BYTES, DEFAULT_RESULT_TTL_MS, type ResultsOptions } from "../results/result-budget.js";

export const DEFAULT_MAX_CONCURRENCY = 8;
export const DEFAULT_MAX_QUEUE = 256;
export const DEFAULT_RELOAD_DEBOUNCE_MS = 50;
export const DEFAULT_LOG_DIR = ".toolexec/logs";

/** The options the core itself understands; `createExecutor` takes these plus the built-in plugins' own. */
export interface CoreExecutorOptions {
  /** Folder holding tools.json, mcp.json and tools/. Default `process.cwd()`. */
  root?: string;
  /** Reload config and scripts when they change on disk. Default true. */
  watch?: boolean;
  /** tools.json's path relative to root, or `false` to run without it. Default `"tools.json"`. */
  toolsConfig?: string | false;
  /** Where execution logs go (relative to root), or `false` for none. Default `.toolexec/logs`. */
  logDir?: string | false;
  /** Rotation and redaction of the execution log. */
  log?: {
    /** rotating-file-stream interval. Default `"1d"`. */
    interval?: string;
    /** Rotated files kept. Default 30 (30 days with daily rotation). */
    maxFiles?: number;
    /** Extra key patterns whose values are redacted, on top of the defaults (password, token, ...). */
    redactKeys?: Array<string | RegExp>;
    /** Values larger than this many bytes are logged as a preview. Default 65536. */
    maxValueBytes?: number;
  };
  /** Extra plugins, started after the built-in ones. */
  plugins?: ExecutorPlugin<never>[];
  /** Budget of a call whose tool names none, in ms. Default 30000. */
  defaultTimeoutMs?: number;
  /** Calls running at once across all tools. Default 8. */
  maxConcurrency?: number;
  /** Calls allowed to wait for a turn; past it calls fail with `QUEUE_FULL`. Default 256. */
  maxQueue?: number;
  /** Quiet period after a file change before reloading, in ms. Default 50. */
  reloadDebounceMs?: number;
  /** Diagnostics sink; `console` fits. Default: warnings and errors to stderr. */
  logger?: Logger;
  /**
   * Any broken piece fails start-up with `CONFIG_INVALID` naming it (a reload with one is rejected),
   * instead of leaving it out while the rest runs: an MCP server whose entry cannot be resolved here
   * (an unset variable, a bad URL), a Python entry naming a function its module lacks, a tool whose
   * schema cannot be used for validation (otherwise listed and called unchecked). Default false.
   */
  strict?: boolean;
  /**
   * The result budget of bounded calls (LLM adapters, `serve`, `callTool(…, { bounded: true })`):
   * `maxChars` replaces tools.json's `defaults.results.maxChars` (a tool's or server's own still
   * wins); `store` sizes the memory behind `read_result` (default 64 MiB, handles kept 1 hour).
   */
  results?: ResultsOptions;
}

export interface ResolvedExecutorOptions {
  root: string;
  watch: boolean;
  toolsConfig: string | false;
  log: false | { dir: string; interval: string; maxFiles: number; redactKeys: RegExp[]; maxValueBytes: number };
  plugins: ExecutorPlugin<never>[];
  defaultTimeoutMs: number;
  maxConcurrency: number;
  maxQueue: number;
  reloadDebounceMs: number;
  logger: Logger;
  strict: boolean;
  results: { maxChars?: number; store: { maxBytes: number; ttlMs: number } };
}

const stderrLogger: Logger = {
  debug() {},
  info() {},
  warn: (message, fields) => console.warn(`[toolexec] ${message}`, ...(fields ? [fields] : [])),
  error: (message, fields) => console.error(`[toolexec] ${message}`, ...(fields ? [fields] : [])),
};

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Defaults for options a strict schema has already checked. */
export function resolveCheckedOptions(options: CoreExecutorOptions, reservedPluginNames: readonly string[]): ResolvedExecutorOptions {
  const root = path.resolve(options.root ?? process.cwd());
  const names = new Set<string>();
  for (const plugin of options.plugins ?? []) {
    checkContractVersion(plugin);
    if (names.has(plugin.name) || reservedPluginNames.includes(plugin.name)) {
      throw new ToolexecError("INVALID_OPTIONS", `Plugin name "${plugin.name}" is already taken; give each plugin a unique name`);
    }
    names.add(plugin.name);
  }
  const logDir = options.logDir ?? DEFAULT_LOG_DIR;
  return {
    root,
    watch: options.watch ?? true,
    toolsConfig: options.toolsConfig ?? "tools.json",
    log:
      logDir === false
        ? false
        : {
            dir: path.resolve(root, logDir),
            interval: options.log?.interval ?? DEFAULT_LOG_INTERVAL,
            maxFiles: options.log?.maxFiles ?? DEFAULT_LOG_MAX_FILES,
            redactKeys: [
              ...DEFAULT_REDACT_KEYS,
              ...(options.log?.redactKeys ?? []).map((key) => (typeof key === "string" ? new RegExp(`^${escapeRegExp(key)}$`, "i") : key)),
            ],
            maxValueBytes: options.log?.maxValueBytes ?? DEFAULT_LOG_MAX_VALUE_BYTES,
          },
    plugins: [...(options.plugins ?? [])],
    defaultTimeoutMs: options.defaultTimeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxConcurrency: options.maxConcurrency ?? DEFAULT_MAX_CONCURRENCY,
    maxQueue: options.maxQueue ?? DEFAULT_MAX_QUEUE,
    reloadDebounceMs: options.reloadDebounceMs ?? DEFAULT_RELOAD_DEBOUNCE_MS,
    logger: options.logger ?? stderrLogger,
    strict: options.strict ?? false,
    results: {
      ...(options.results?.maxChars === undefined ? {} : { maxChars: options.results.maxChars }),
      store: { maxBytes: options.results?.store?.maxBytes ?? DEFAULT_RESULT_STORE_MAX_BYTES, ttlMs: options.results?.store?.ttlMs ?? DEFAULT_RESULT_TTL_MS },
    },
  };
}
