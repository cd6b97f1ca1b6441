/**
 * The files of an execution log folder, oldest first: the rotated ones, named by rotating-file-stream
 * after the start of the interval they cover (`executions-2026-11-22.jsonl`,
 * `executions-2026-11-22T134500.jsonl`, `.2`, `.3`… when a name was taken), then the live
 * `executions.jsonl`. Names carry local time, as the writer makes them (src/core/log/execution-log.ts).
 */
import { readdir, stat } from "node:fs/promises";
import path from "node:path";

export interface LogFileEntry {
  /** Absolute path. */
  path: string;
  /** Epoch ms of the start of the interval a rotated file covers; undefined for the live file. */
  start?: number;
  live: boolean;
}

const LIVE_NAME = "executions.jsonl";
const ROTATED_NAME = /^executions-(\d{4})-(\d\d)-(\d\d)(?:T(\d\d)(\d\d)(\d\d))?(?:\.(\d+))?\.jsonl$/;

/** A rotated file's interval start and its index among files that share that start. */
function parseRotatedName(name: string): { start: number; index: number } | undefined {
  const match = ROTATED_NAME.exec(name);
  if (!match) return undefined;
  const [, year, month, day, hours = "0", minutes = "0", seconds = "0", index = "1"] = match;
  return { start: new Date(Number(year), Number(month) - 1, Number(day), Number(hours), Number(minutes), Number(seconds)).getTime(), index: Number(index) };
}

/**
 * Every log file of `dir`, oldest first; a missing folder is an empty list. With `since` (epoch ms),
 * files last written before it are left out: a record is written after its call started, so a file
 * whose last write (its mtime) came before `since` holds no call that started at or after it.
 *
 * @example
 * await listLogFiles("/project/.toolexec/logs"); // [{ path: ".../executions-2026-11-27.jsonl", start: …, live: false }, { path: ".../executions.jsonl", live: true }]
 */
export async function listLogFiles(dir: string, since?: number): Promise<LogFileEntry[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  const rotated = names
    .map((name) => ({ name, parsed: parseRotatedName(name) }))
    .filter((entry): entry is { name: string; parsed: { start: number; index: number } } => entry.parsed !== undefined)
    .sort((a, b) => a.parsed.start - b.parsed.start || a.parsed.index - b.parsed.index);
  const files: LogFileEntry[] = rotated.map(({ name, parsed }) => ({ path: path.join(dir, name), start: parsed.start, live: false }));
  if (names.includes(LIVE_NAME)) files.push({ path: path.join(dir, LIVE_NAME), live: true });
  if (since === undefined) return files;
  const written = await Promise.all(files.map((file) => stat(file.path).then((info) => info.mtimeMs, () => Number.NEGATIVE_INFINITY)));
  return files.filter((_, index) => written[index]! >= since);
}

/** Bytes in a file, or 0 when it is gone (rotated away between listing and reading). */
export async function fileSize(file: string): Promise<number> {
  try {
    return (await stat(file)).size;
  } catch {
    return 0;
  }
}
