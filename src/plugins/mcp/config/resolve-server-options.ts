/**
 * The per-server options whose value may come from the entry or from mcp.json's `serverDefaults`:
 * backoff (key by key), and a stdio server's start, idle stop and first-start budget.
 */
import { DEFAULT_MCP_MAX_DELAY_MS, DEFAULT_MCP_MIN_DELAY_MS, DEFAULT_MCP_RETRIES } from "./mcp-config-constants.js";
import type { McpServerDefaults, McpServerEntryFile } from "./mcp-server-schema.js";
import type { McpRetryPolicy, StdioServerEntry } from "./resolve-mcp-server.js";

/** Backoff as written (the entry's keys over `serverDefaults`'), with defaults. */
export function resolveRetry(written: NonNullable<McpServerEntryFile["retry"]>): McpRetryPolicy {
  return {
    retries: written.retries ?? DEFAULT_MCP_RETRIES,
    minDelayMs: written.minDelayMs ?? DEFAULT_MCP_MIN_DELAY_MS,
    maxDelayMs: written.maxDelayMs ?? Math.max(DEFAULT_MCP_MAX_DELAY_MS, written.minDelayMs ?? 0),
  };
}

/** A stdio server's start, idle stop and first-start budget: the entry's, else `serverDefaults`'. */
export function stdioLifecycle(entry: McpServerEntryFile, defaults: McpServerDefaults, runner: string | undefined): Pick<StdioServerEntry, "packageRunner" | "installTimeoutMs" | "start" | "idleTimeoutMs"> {
  const installTimeoutMs = entry.installTimeoutMs ?? defaults.installTimeoutMs;
  // A budget given for this very entry marks any command as one that may download on its first start.
  const packageRunner = runner ?? (entry.installTimeoutMs === undefined ? undefined : "custom");
  const start = entry.start ?? defaults.start;
  const idleTimeoutMs = entry.idleTimeoutMs ?? defaults.idleTimeoutMs;
  return {
    ...(packageRunner === undefined ? {} : { packageRunner }),
    ...(installTimeoutMs === undefined ? {} : { installTimeoutMs }),
    ...(start === undefined ? {} : { start }),
    ...(idleTimeoutMs === undefined ? {} : { idleTimeoutMs }),
  };
}
