/**
 * One line of the execution log as a reader sees it, and the filters `toolexec logs` and the console
 * apply. Lines come from every version of the writer: fields may be missing (`queueMs` when a call
 * did not wait, `traceId`/`spanId` without telemetry, `principal` without identity), and lines that
 * are not calls (`{ event: "trust:decision" }`, `{ event: "log:dropped" }`) are skipped by filters.
 */

/** A call's log line: what the pipeline writes (docs/logging.md), every field optional to a reader. */
export interface LoggedRecord {
  time?: string;
  executionId?: string;
  parentExecutionId?: string;
  tool?: string;
  plugin?: string | null;
  ok?: boolean;
  error?: { code?: string; message?: string };
  durationMs?: number;
  /** Present when the call waited for a turn (or a code runtime). */
  queueMs?: number;
  timeoutMs?: number;
  caller?: { name?: string; version?: string; session?: string; sessionId?: string };
  principal?: string | { id?: string; kind?: string };
  profile?: string;
  decision?: "allowed" | "refused";
  traceId?: string;
  spanId?: string;
  /** Lines that are not calls carry an event name instead. */
  event?: string;
  [key: string]: unknown;
}

/** What to keep; every field narrows. Times are epoch ms. */
export interface LogFilter {
  since?: number;
  until?: number;
  tool?: string;
  /** MCP server: the `server__tool` prefix of the tool's name (or a record's own `server`). */
  server?: string;
  /** Error code, e.g. `TIMEOUT`. */
  code?: string;
  outcome?: "ok" | "error";
  principal?: string;
  /** This execution and the calls made under it (at any depth). */
  execution?: string;
}

/** The record of a JSON line, or undefined when the line is not a JSON object. */
export function parseRecord(line: string): LoggedRecord | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as LoggedRecord) : undefined;
}

/** Whether the record is a call (not an event line such as a trust decision). */
export const isCallRecord = (record: LoggedRecord): boolean => typeof record.tool === "string" && record.event === undefined;

/** The MCP server of a call: the record's own `server`, else the prefix of `server__tool`. */
export function serverOf(record: LoggedRecord): string | undefined {
  if (typeof record.server === "string") return record.server;
  const tool = record.tool ?? "";
  const separator = tool.indexOf("__");
  return separator > 0 ? tool.slice(0, separator) : undefined;
}

/** The principal's id, whether the line carries it as a string or as `{ id }`. */
export function principalOf(record: LoggedRecord): string | undefined {
  const principal = record.principal;
  if (typeof principal === "string") return principal;
  return typeof principal?.id === "string" ? principal.id : undefined;
}

/** Epoch ms of the call's start, or NaN when the line has no valid `time`. */
export const timeOf = (record: LoggedRecord): number => (typeof record.time === "string" ? Date.parse(record.time) : Number.NaN);

/**
 * Whether a call record passes every filter but `execution` (which needs the whole tree: see
 * execution-tree.ts). A record without a valid time is outside any time window.
 */
export function matchesFilter(record: LoggedRecord, filter: LogFilter): boolean {
  if (!isCallRecord(record)) return false;
  if (filter.since !== undefined || filter.until !== undefined) {
    const time = timeOf(record);
    if (Number.isNaN(time) || (filter.since !== undefined && time < filter.since) || (filter.until !== undefined && time > filter.until)) return false;
  }
  if (filter.tool !== undefined && record.tool !== filter.tool) return false;
  if (filter.server !== undefined && serverOf(record) !== filter.server) return false;
  if (filter.outcome !== undefined && (record.ok === true) !== (filter.outcome === "ok")) return false;
  if (filter.code !== undefined && (record.ok !== false || record.error?.code !== filter.code)) return false;
  if (filter.principal !== undefined && principalOf(record) !== filter.principal) return false;
  return true;
}
