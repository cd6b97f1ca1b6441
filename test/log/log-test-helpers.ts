/** Shared pieces of the execution-log tests: reading the log back, a recording logger, executor defaults. */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { vi } from "vitest";
import type { ExecutorOptions, Logger } from "../../src/index.js";
import type { TempProject } from "../helpers/temp-project.js";

/** Where the log goes when `logDir` is not given, relative to the project root. */
export const DEFAULT_LOG_PATH = ".toolexec/logs";

export type LogRecord = Record<string, unknown> & { executionId: string; tool: string; ok: boolean };

/** A logger whose calls tests can inspect. */
export function recordingLogger() {
  return { debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() } satisfies Logger;
}

/** Options every log test starts from: no watcher (nothing to reload) and a recording logger. */
export function executorOptions(project: TempProject, extra: ExecutorOptions = {}): ExecutorOptions {
  return { root: project.root, watch: false, logger: recordingLogger(), ...extra };
}

/** The raw text of a log file (the live one unless `file` names another). */
export function readLogText(dir: string, file = "executions.jsonl"): string {
  return readFileSync(path.join(dir, file), "utf8");
}

/** One parsed record per line; fails the test if a line is not JSON or a line is left unterminated. */
export function readLogRecords(dir: string, file = "executions.jsonl"): LogRecord[] {
  const text = readLogText(dir, file);
  if (text !== "" && !text.endsWith("\n")) throw new Error(`${file} does not end with a newline: the last record is cut`);
  return text
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as LogRecord);
}

/** The files of a log folder, sorted; none if the folder does not exist. */
export function listLogFiles(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir).sort() : [];
}

/**
 * Poll the live log file until `done` holds for its records, and return them; fails once `withinMs`
 * have passed since `since` (a `Date.now()`), with what the file held then. For the flush that comes
 * without close(): the bound is the log's own promise, not a guess at how long a write takes.
 */
export async function waitForLogRecords(dir: string, done: (records: LogRecord[]) => boolean, options: { since: number; withinMs: number }): Promise<LogRecord[]> {
  for (;;) {
    const text = existsSync(path.join(dir, "executions.jsonl")) ? readLogText(dir) : "";
    // A batch is one write, but a reader may still catch a line half-written: parse whole lines only.
    const records = text.split("\n").slice(0, -1).map((line) => JSON.parse(line) as LogRecord);
    if (done(records)) return records;
    if (Date.now() - options.since > options.withinMs) throw new Error(`The log did not hold the expected records within ${options.withinMs} ms; it held:\n${text}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
