/**
 * The execution log: one JSON line per tool call or code run, in daily files kept 30 days by
 * default (rotating-file-stream). Secrets are redacted and big values cut to a preview before
 * anything is written, and a failing log never fails a call: it warns once and stops writing.
 */
import { createStream, type RotatingFileStream } from "rotating-file-stream";
import type { Logger } from "../plugin-contract.js";
import { boundRecord } from "./bound-record.js";
import { createRedactor, type Redactor } from "./redact.js";

export const DEFAULT_LOG_INTERVAL = "1d";
export const DEFAULT_LOG_MAX_FILES = 30;
/** Values larger than this (as JSON) are logged as a truncated preview. */
export const DEFAULT_LOG_MAX_VALUE_BYTES = 64 * 1024;
export const LOG_FILE_NAME = "executions.jsonl";

export interface ExecutionLogOptions {
  dir: string;
  /** rotating-file-stream interval: `"1d"` (default), `"12h"`, `"1M"`... */
  interval: string;
  /** Rotated files kept; older ones are deleted. */
  maxFiles: number;
  redactKeys: readonly RegExp[];
  maxValueBytes: number;
  logger: Logger;
}

export interface ExecutionLog {
  /** Write one record; `secrets` are strings to hide wherever they appear in its payload. Never throws. */
  write(record: Record<string, unknown>, secrets?: readonly string[]): void;
  /** Flush and close the file; safe to call twice. */
  close(): Promise<void>;
}

const pad = (value: number) => String(value).padStart(2, "0");

/**
 * Whether rotating-file-stream accepts `interval`: a positive whole number of s or m that divides
 * 60, of h that divides 24, or of d or M. It checks only when the stream is created, which here is
 * at the first call; options checked with this fail at createExecutor instead.
 *
 * @example
 * isLogInterval("12h"); // true
 * isLogInterval("7s"); // false: 7 does not divide 60
 */
export function isLogInterval(interval: string): boolean {
  const match = /^(\d+)([smhdM])$/.exec(interval);
  if (!match) return false;
  const amount = Number(match[1]);
  const whole = { s: 60, m: 60, h: 24 }[match[2] as "s" | "m" | "h"] as number | undefined;
  return amount > 0 && (whole === undefined || whole % amount === 0);
}

/**
 * rotating-file-stream's name generator: `executions.jsonl` for the live file, and for a rotated one
 * the start of the interval it covers: `executions-2026-11-22.jsonl` for daily or longer intervals,
 * `executions-2026-11-22T134500.jsonl` for shorter ones, with `.2`, `.3`... if that name is taken.
 */
export function rotatedFileName(interval: string) {
  const withTime = /[smh]$/.test(interval);
  return (time: Date | number | null, index?: number): string => {
    if (time === null) return LOG_FILE_NAME;
    const date = new Date(time);
    let stamp = `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
    if (withTime) stamp += `T${pad(date.getHours())}${pad(date.getMinutes())}${pad(date.getSeconds())}`;
    return `executions-${stamp}${index !== undefined && index > 1 ? `.${index}` : ""}.jsonl`;
  };
}

/**
 * Fields the executor writes itself (ids, names, timings), never tool output: they are logged as
 * they are, so a short env value such as "100" cannot garble an execution id or a duration.
 */
const METADATA_FIELDS = new Set(["time", "executionId", "parentExecutionId", "tool", "plugin", "ok", "durationMs", "timeoutMs"]);

/**
 * `record` with its payload (arguments, value, error, anything not metadata) redacted: known secrets,
 * and the values of the record's own secret-looking keys wherever else they appear in it.
 */
function redactPayload(record: Record<string, unknown>, redactor: Redactor, secrets: readonly string[]): Record<string, unknown> {
  const echoed = redactor.secretValues(record);
  const redact = redactor.prepare(echoed.length === 0 ? secrets : [...secrets, ...echoed]);
  const redacted: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) redacted[key] = METADATA_FIELDS.has(key) ? value : redact(value);
  return redacted;
}

/** The ids and outcome of a record whose full form could not be serialized (e.g. a throwing getter). */
function fallbackRecord(record: Record<string, unknown>, error: unknown): Record<string, unknown> {
  const kept = Object.entries(record).filter(([, value]) => value === null || ["string", "number", "boolean"].includes(typeof value));
  return { ...Object.fromEntries(kept), logError: `This record could not be serialized: ${(error as Error)?.message ?? String(error)}` };
}

export function createExecutionLog(options: ExecutionLogOptions): ExecutionLog {
  const redactor = createRedactor(options.redactKeys);
  let stream: RotatingFileStream | undefined;
  let failed = false;
  let closing: Promise<void> | undefined;

  // Only a file-system fault disables the log; one odd record must not silence every later call.
  const fail = (error: unknown) => {
    if (failed) return;
    failed = true;
    options.logger.warn(`Execution log disabled after an error; calls go on unlogged: ${(error as Error)?.message ?? String(error)}`, { dir: options.dir });
  };

  const serialize = (record: Record<string, unknown>, secrets: readonly string[]): string => {
    try {
      // Redacted before it is bounded, so a preview is cut from text that holds no secret.
      return JSON.stringify(boundRecord(redactPayload(record, redactor, secrets), options.maxValueBytes));
    } catch (error) {
      return JSON.stringify(redactPayload(fallbackRecord(record, error), redactor, secrets));
    }
  };

  // Opened on first write, so reading config or listing tools leaves no files behind.
  const open = () => {
    stream = createStream(rotatedFileName(options.interval), {
      path: options.dir,
      interval: options.interval,
      intervalBoundary: true,
      initialRotation: true,
      maxFiles: options.maxFiles,
      history: ".executions-history",
    } as Parameters<typeof createStream>[1]);
    stream.on("error", fail);
    return stream;
  };

  return {
    write(record, secrets = []) {
      if (failed || closing) return;
      let line: string;
      try {
        line = serialize(record, secrets);
      } catch (error) {
        options.logger.warn(`Execution log skipped a record it could not serialize: ${(error as Error)?.message ?? String(error)}`);
        return;
      }
      try {
        (stream ?? open()).write(`${line}\n`);
      } catch (error) {
        fail(error);
      }
    },
    close() {
      closing ??= new Promise<void>((resolve) => {
        if (!stream || stream.destroyed) return resolve();
        stream.once("finish", () => resolve());
        stream.once("error", () => resolve());
        stream.end();
      });
      return closing;
    },
  };
}
