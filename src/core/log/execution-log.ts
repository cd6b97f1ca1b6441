/**
 * The execution log: one JSON line per tool call or code run, in daily files kept 30 days by
 * default (rotating-file-stream). A call only hands its record over: a JSON snapshot is taken on
 * the spot, and redaction, bounding and writing happen off the call path, in batches, at most
 * `LOG_FLUSH_DELAY_MS` later, on `close()`, and synchronously if the process exits first. A large
 * record is redacted in slices of a few ms (`SLICE_MS`) between which the event loop turns. A
 * failing log never fails a call: it warns once and stops writing.
 */
import type { Logger } from "../plugin-contract.js";
import { flushOnExit } from "./flush-on-exit.js";
import { createLogFile, type LogFile } from "./log-file.js";
import { createRecordQueue, type RecordQueue } from "./record-queue.js";
import { createWriteBehind } from "./write-behind.js";

export const DEFAULT_LOG_INTERVAL = "1d";
export const DEFAULT_LOG_MAX_FILES = 30;
/** Values larger than this (as JSON) are logged as a truncated preview. */
export const DEFAULT_LOG_MAX_VALUE_BYTES = 64 * 1024;
export const LOG_FILE_NAME = "executions.jsonl";
/**
 * How long a record may wait before its batch is written. Waiting gathers the calls of a busy
 * moment into one write; 200 ms keeps the file within a second of the calls even on a slow disk.
 */
export const LOG_FLUSH_DELAY_MS = 200;
/**
 * A batch: at most this many records, or fewer once they hold this many characters. Serializing one
 * never holds the event loop for more than a few ms, and a queue this long is written without waiting.
 */
export const MAX_BATCH_RECORDS = 256;
export const MAX_BATCH_CHARS = 1024 * 1024;

export interface ExecutionLogOptions {
  dir: string;
  /** rotating-file-stream interval: `"1d"` (default), `"12h"`, `"1M"`... */
  interval: string;
  /** Rotated files kept; older ones are deleted. */
  maxFiles: number;
  redactKeys: readonly RegExp[];
  maxValueBytes: number;
  logger: Logger;
  /** Characters of records that may wait for the disk before new ones are dropped (`MAX_QUEUED_CHARS`). */
  maxQueuedChars?: number;
}

export interface ExecutionLog {
  /**
   * Hand one record over; `secrets` are strings to hide wherever they appear in its payload. The
   * record is snapshotted before this returns, so it may be changed afterwards. Never throws.
   */
  write(record: Record<string, unknown>, secrets?: readonly string[]): void;
  /** Write every record handed over, then close the file; safe to call twice. */
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

const messageOf = (error: unknown) => (error as Error)?.message ?? String(error);

/** Write the next batch; resolves with how many records it took, once written. */
async function writeNextBatch(queue: RecordQueue, file: LogFile, fail: (error: unknown) => void): Promise<number> {
  // Large records are redacted here, off the call path, a slice at a time.
  await queue.ready();
  return new Promise<number>((resolve) => {
    const before = queue.length;
    const text = queue.takeLines(MAX_BATCH_RECORDS, MAX_BATCH_CHARS);
    const taken = before - queue.length;
    if (text === "") return resolve(taken);
    file.write(text, (error) => {
      if (error) fail(error);
      resolve(taken);
    });
  });
}

export function createExecutionLog(options: ExecutionLogOptions): ExecutionLog {
  let failed = false;
  let closing: Promise<void> | undefined;
  const warn = (message: string) => options.logger.warn(`Execution log${message}`, { dir: options.dir });
  // Only a file-system fault disables the log; one odd record must not silence every later call.
  const fail = (error: unknown) => {
    if (failed) return;
    failed = true;
    queue.clear();
    warn(` disabled after an error; calls go on unlogged: ${messageOf(error)}`);
  };
  const queue = createRecordQueue({ ...options, onDropping: () => warn(': the disk is behind; records are dropped until it catches up (a "log:dropped" line counts them)') });
  const file = createLogFile({ ...options, names: rotatedFileName(options.interval) }, fail);
  // A process that exits without close(): everything still waiting, written synchronously.
  const unregister = flushOnExit(() => {
    try {
      if (!failed) file.appendNow(queue.takeLines(Infinity, Infinity, true));
    } catch (error) {
      warn(`: the records still waiting at exit could not be written: ${messageOf(error)}`);
    }
  });
  const writer = createWriteBehind({
    waiting: () => queue.length,
    isFull: () => queue.length >= MAX_BATCH_RECORDS || queue.chars >= MAX_BATCH_CHARS,
    stopped: () => failed,
    delayMs: LOG_FLUSH_DELAY_MS,
    writeBatch: () => writeNextBatch(queue, file, fail),
  });

  return {
    write(record, secrets = []) {
      if (failed || closing) return;
      // Opened with the first record, so reading config or listing tools leaves no files behind.
      file.open();
      queue.add(record, secrets);
      writer.schedule();
    },
    close() {
      closing ??= (async () => {
        await writer.drain();
        unregister();
        await file.close();
      })();
      return closing;
    },
  };
}
