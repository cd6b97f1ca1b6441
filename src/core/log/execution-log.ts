/**
 * The execution log: one JSON line per tool call or code run, in daily files kept 30 days by
 * default (rotating-file-stream). Secrets are redacted before anything is written, and a failing
 * log never fails a call: it warns once and stops writing.
 */
import { createStream, type RotatingFileStream } from "rotating-file-stream";
import type { Logger } from "../plugin-contract.js";
import { createRedactor } from "./redact.js";

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
  /** Write one record; `secrets` are strings to hide wherever they appear. Never throws. */
  write(record: Record<string, unknown>, secrets?: readonly string[]): void;
  /** Flush and close the file; safe to call twice. */
  close(): Promise<void>;
}

const pad = (value: number) => String(value).padStart(2, "0");

/** `executions-2026-11-22.jsonl` for daily or longer intervals, with the time for shorter ones. */
function rotatedName(interval: string) {
  const withTime = /[smh]$/.test(interval);
  return (time: Date | number | null, index?: number): string => {
    if (time === null) return LOG_FILE_NAME;
    const date = new Date(time);
    let stamp = `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
    if (withTime) stamp += `T${pad(date.getHours())}${pad(date.getMinutes())}${pad(date.getSeconds())}`;
    return `executions-${stamp}${index !== undefined && index > 1 ? `.${index}` : ""}.jsonl`;
  };
}

/** Bound one logged value: anything over `maxBytes` as JSON becomes a preview string. */
function boundValue(value: unknown, maxBytes: number): unknown {
  if (value === undefined || value === null || typeof value === "number" || typeof value === "boolean") return value;
  const text = typeof value === "string" ? value : JSON.stringify(value);
  if (text === undefined || Buffer.byteLength(text) <= maxBytes) return value;
  return { truncated: true, bytes: Buffer.byteLength(text), preview: text.slice(0, Math.floor(maxBytes / 4)) };
}

export function createExecutionLog(options: ExecutionLogOptions): ExecutionLog {
  const redactor = createRedactor(options.redactKeys);
  let stream: RotatingFileStream | undefined;
  let failed = false;
  let closing: Promise<void> | undefined;

  const fail = (error: unknown) => {
    if (failed) return;
    failed = true;
    options.logger.warn(`toolexec: execution log disabled after an error: ${(error as Error)?.message ?? String(error)}`, { dir: options.dir });
  };

  // Opened on first write, so reading config or listing tools leaves no files behind.
  const open = () => {
    stream = createStream(rotatedName(options.interval), {
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
      try {
        const bounded: Record<string, unknown> = {};
        for (const [key, value] of Object.entries(record)) bounded[key] = key === "value" || key === "arguments" ? boundValue(value, options.maxValueBytes) : value;
        const line = JSON.stringify(redactor.redact(bounded, secrets));
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
