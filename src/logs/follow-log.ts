/**
 * `toolexec logs --follow`: the lines appended to the live file from now on, across rotations.
 * rotating-file-stream rotates by renaming `executions.jsonl` and opening a new one; the follower
 * holds the file it reads open, so after a rename it reads what is left in the old file, then moves
 * to the new one from its start. It polls (a few stat calls a tick), which works on every file system.
 */
import { open, stat, type FileHandle } from "node:fs/promises";
import path from "node:path";

/** How often the file is checked for new lines. */
export const FOLLOW_POLL_MS = 100;
const READ_BYTES = 1024 * 1024;

export interface FollowOptions {
  signal: AbortSignal;
  /** Each complete new line (without its newline). */
  onLine(line: string): void;
  /** Begin at the live file's start instead of its end (a file created after the follow began is always read whole). */
  fromStart?: boolean;
  /** Called once the follow has its starting point: every line written from then on is seen. */
  onReady?(): void;
}

interface Position {
  handle: FileHandle;
  inode: number;
  offset: number;
}

async function openAt(file: string, atEnd: boolean): Promise<Position | undefined> {
  let handle: FileHandle;
  try {
    handle = await open(file, "r");
  } catch {
    return undefined;
  }
  const info = await handle.stat();
  return { handle, inode: info.ino, offset: atEnd ? info.size : 0 };
}

/** Everything from `position.offset` to the end. */
async function readNew(position: Position): Promise<Buffer> {
  const parts: Buffer[] = [];
  for (;;) {
    const buffer = Buffer.allocUnsafe(READ_BYTES);
    const { bytesRead } = await position.handle.read(buffer, 0, READ_BYTES, position.offset);
    if (bytesRead === 0) break;
    position.offset += bytesRead;
    parts.push(buffer.subarray(0, bytesRead));
  }
  return Buffer.concat(parts);
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });

/**
 * Follow `dir`'s live log until `signal` aborts.
 *
 * @example
 * await followLogLines(dir, { signal, onLine: (line) => console.log(line) });
 */
export async function followLogLines(dir: string, options: FollowOptions): Promise<void> {
  const file = path.join(dir, "executions.jsonl");
  let position = await openAt(file, !options.fromStart);
  options.onReady?.();
  // Bytes of a line whose newline has not arrived yet (a write in progress), kept as bytes so a
  // character cut between two reads is decoded whole.
  let partial = Buffer.alloc(0);
  const emit = (bytes: Buffer) => {
    let data = partial.length === 0 ? bytes : Buffer.concat([partial, bytes]);
    let newline = data.indexOf(10);
    while (newline !== -1) {
      if (newline > 0) options.onLine(data.toString("utf8", 0, newline));
      data = data.subarray(newline + 1);
      newline = data.indexOf(10);
    }
    partial = Buffer.from(data);
  };
  try {
    while (!options.signal.aborted) {
      if (position) emit(await readNew(position));
      const current = await stat(file).catch(() => undefined);
      if (current && (!position || current.ino !== position.inode)) {
        // Rotated: what the old file got until now (a write may land after the rename) is read
        // before it is left; the new one is read from its start.
        if (position) {
          emit(await readNew(position));
          await position.handle.close();
        }
        position = await openAt(file, false);
        continue;
      }
      if (current && position && current.size < position.offset) position.offset = 0;
      await sleep(FOLLOW_POLL_MS, options.signal);
    }
  } finally {
    await position?.handle.close();
  }
}
