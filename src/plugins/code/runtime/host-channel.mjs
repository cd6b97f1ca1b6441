// @ts-check
/**
 * The runtime's side of its socket to the host (fd 3): newline-delimited JSON frames written with
 * blocking writes, and a blocking read for the one reply a synchronous `call_tool` waits for.
 * The host never writes anything else on this socket, so a read always returns that reply.
 *
 * Each write wakes the host, and on a small machine a wake-up is the largest cost of a frame, so
 * frames that need no answer right away (async tool calls) wait in a queue until the code yields
 * (one microtask) or the next frame is written, and leave together in one write. Order is kept:
 * every write sends the queue first.
 */
import { readSync, writeSync } from "node:fs";
import { StringDecoder } from "node:string_decoder";

/** The runtime leaves when the host is gone: nothing else could ever answer it. */
const HOST_GONE_EXIT_CODE = 0;
/** Queued frames are written at once past this many characters: a batch never becomes a huge string. */
const MAX_QUEUED_CHARS = 64 * 1024;

/** Sleep a millisecond without spinning, in case the socket is ever non-blocking. */
function pause() {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
}

/**
 * @param {number} fd
 */
export function openHostChannel(fd) {
  const chunk = Buffer.allocUnsafe(64 * 1024);
  const decoder = new StringDecoder("utf8");
  let pending = "";

  /** Frames waiting for the next write, each with its newline. @type {string[]} */
  let queued = [];
  let queuedChars = 0;
  let flushScheduled = false;

  /** Write every queued frame now, in one write. */
  const flush = () => {
    flushScheduled = false;
    if (queued.length === 0) return;
    const lines = queued.join("");
    queued = [];
    queuedChars = 0;
    writeBytes(Buffer.from(lines, "utf8"));
  };

  /** @param {string} text one frame, without its newline */
  const write = (text) => {
    queued.push(`${text}\n`);
    flush();
  };

  /** @param {string} text one frame, without its newline */
  const enqueue = (text) => {
    if (queuedChars + text.length > MAX_QUEUED_CHARS) {
      write(text);
      return;
    }
    queued.push(`${text}\n`);
    queuedChars += text.length + 1;
    if (!flushScheduled) {
      flushScheduled = true;
      queueMicrotask(flush);
    }
  };

  /** @param {Buffer} bytes */
  const writeBytes = (bytes) => {
    let offset = 0;
    while (offset < bytes.length) {
      try {
        offset += writeSync(fd, bytes, offset, bytes.length - offset);
      } catch (error) {
        const code = /** @type {NodeJS.ErrnoException} */ (error).code;
        if (code === "EAGAIN") pause();
        else if (code === "EPIPE" || code === "ECONNRESET") process.exit(HOST_GONE_EXIT_CODE);
        else throw error;
      }
    }
  };

  const readLine = () => {
    let end = pending.indexOf("\n");
    while (end < 0) {
      // Search only what arrives next: a multi-megabyte answer comes in 64 KiB pieces.
      const searched = pending.length;
      let count;
      try {
        count = readSync(fd, chunk, 0, chunk.length, null);
      } catch (error) {
        if (/** @type {NodeJS.ErrnoException} */ (error).code === "EAGAIN") {
          pause();
          continue;
        }
        throw error;
      }
      if (count === 0) process.exit(HOST_GONE_EXIT_CODE);
      pending += decoder.write(chunk.subarray(0, count));
      end = pending.indexOf("\n", searched);
    }
    const line = pending.slice(0, end);
    pending = pending.slice(end + 1);
    return line;
  };

  return {
    /** @param {Record<string, unknown>} message */
    send(message) {
      write(JSON.stringify(message));
    },
    /** A frame whose text the caller built (to embed JSON it already has as text). @param {string} text */
    sendText(text) {
      write(text);
    },
    /** A frame that needs no answer now: written with the next frame or once the code yields. @param {string} text */
    sendSoon(text) {
      enqueue(text);
    },
    /** Send a frame and block until the host's one-line reply. @param {string} text */
    request(text) {
      write(text);
      return readLine();
    },
  };
}
