/**
 * The execution log's file: a rotating-file-stream opened on the first record, written one batch at
 * a time, plus a synchronous append for the last moment of a process that exits without `close()`.
 * rotating-file-stream (with zlib and its streams, ~12 ms of CPU) is imported on that first record,
 * not when the executor starts.
 */
import { appendFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import type { RotatingFileStream } from "rotating-file-stream";

export interface LogFileOptions {
  dir: string;
  interval: string;
  maxFiles: number;
  /** rotating-file-stream's name generator: `names(null)` is the live file, `names(time, index)` a rotated one. */
  names(time: Date | number | null, index?: number): string;
}

export interface LogFile {
  /** Open the stream if it is not open yet; what rotating-file-stream throws (a bad interval) goes to `onError`. */
  open(): void;
  /** Hand `text` to the stream (open first); `done` runs once it is written, with the error if it failed. */
  write(text: string, done: (error?: Error | null) => void): void;
  /**
   * Append `text` synchronously, after any batch the stream still holds because the file was not
   * open yet: for the process's `exit`, when nothing asynchronous runs any more.
   */
  appendNow(text: string): void;
  /** Flush and close the stream; resolves also when it failed or was never opened. */
  close(): Promise<void>;
}

/** rotating-file-stream with the log's rotation: boundaries on the interval, a file left from an earlier one rotated on open. */
async function openStream(options: LogFileOptions): Promise<RotatingFileStream> {
  const { createStream } = await import("rotating-file-stream");
  return createStream(options.names, {
    path: options.dir,
    interval: options.interval,
    intervalBoundary: true,
    initialRotation: true,
    maxFiles: options.maxFiles,
    history: ".executions-history",
  } as Parameters<typeof createStream>[1]);
}

/** A log file; `onError` hears every fault of the stream (opening, writing, rotating). */
export function createLogFile(options: LogFileOptions, onError: (error: unknown) => void): LogFile {
  let opening: Promise<RotatingFileStream | undefined> | undefined;
  // Set once the stream has the file open: from then on a batch handed over reaches the file system
  // at once; before, it waits here or inside the stream, and an exit must write it itself.
  let fileOpen = false;
  let pending: string | undefined;
  let openError: unknown;
  const open = () =>
    (opening ??= openStream(options).then(
      (stream) => {
        stream.on("error", onError);
        stream.once("open", () => (fileOpen = true));
        return stream;
      },
      (error: unknown) => {
        openError = error;
        onError(error);
        return undefined;
      },
    ));
  return {
    open: () => void open(),
    write(text, done) {
      pending = text;
      void open().then((stream) => {
        if (!stream) return done(openError as Error);
        stream.write(text, (error) => {
          pending = undefined;
          done(error);
        });
      });
    },
    appendNow(text) {
      const all = (fileOpen ? "" : (pending ?? "")) + text;
      if (all === "") return;
      pending = undefined;
      mkdirSync(options.dir, { recursive: true });
      appendFileSync(path.join(options.dir, options.names(null)), all);
    },
    async close() {
      const stream = await opening;
      if (!stream || stream.destroyed) return;
      await new Promise<void>((resolve) => {
        stream.once("finish", () => resolve());
        stream.once("error", () => resolve());
        stream.end();
      });
    },
  };
}
