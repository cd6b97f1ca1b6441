/**
 * A file's lines, streamed in large chunks and split by hand: a 100 MB log is never one string, and
 * a callback per line costs far less than an async iterator's promise per line.
 */
import { createReadStream } from "node:fs";

/** Chunk size: large enough that reading costs little next to parsing. */
const CHUNK_BYTES = 1024 * 1024;

export interface LineReadOptions {
  /** Byte offset to start at; when it is inside a line, that partial line is skipped. */
  start?: number;
  signal?: AbortSignal;
}

/**
 * Call `onLine` with each non-empty line of `file` (without its newline); the last line counts even
 * without a final newline. Resolves with the bytes read; a file that is gone reads as empty.
 *
 * @example
 * await forEachLine("executions.jsonl", (line) => count++);
 */
export async function forEachLine(file: string, onLine: (line: string) => void, options: LineReadOptions = {}): Promise<number> {
  const start = options.start ?? 0;
  const stream = createReadStream(file, { start, highWaterMark: CHUNK_BYTES, ...(options.signal ? { signal: options.signal } : {}) });
  // Bytes of a line that continues in the next chunk; lines are decoded whole, so a character cut
  // between two chunks is never split.
  let rest: Buffer | undefined;
  // Started mid-file: the first piece is the tail of a line whose head was not read.
  let skipFirst = start > 0;
  let bytes = 0;
  try {
    for await (const read of stream) {
      bytes += (read as Buffer).length;
      const chunk = rest === undefined ? (read as Buffer) : Buffer.concat([rest, read as Buffer]);
      let from = 0;
      let newline = chunk.indexOf(10);
      while (newline !== -1) {
        if (skipFirst) skipFirst = false;
        else if (newline > from) onLine(chunk.toString("utf8", from, newline));
        from = newline + 1;
        newline = chunk.indexOf(10, from);
      }
      rest = from < chunk.length ? chunk.subarray(from) : undefined;
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return 0;
    throw error;
  }
  if (rest !== undefined && !skipFirst) onLine(rest.toString("utf8"));
  return bytes;
}
