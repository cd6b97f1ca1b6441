/**
 * Reads along a response body as the SDK consumes it: its size, and for SSE the server's `retry:`
 * hint and whether it sent event ids (which make the stream resumable). The bytes pass unchanged;
 * past a size cap the body fails with OUTPUT_TOO_LARGE instead of growing without bound, except on
 * a long-lived event stream, which carries every answer of a session: there the oversized event
 * alone is dropped and reported.
 */
import { ToolexecError } from "../../core/errors/toolexec-error.js";

export interface BodyWatcher {
  /** Sees each chunk before the consumer and returns what the consumer gets; throwing fails the body. */
  onChunk(chunk: Uint8Array): Uint8Array;
  /** The body ended (`error` undefined), broke, or was cancelled by its consumer. Called once. */
  onEnd(error?: unknown): void;
}

/**
 * A body that yields `source`'s chunks and reports to `watcher`. Built on a reader rather than
 * `pipeThrough`, so a network error in the source is seen here, not swallowed by the pipe.
 *
 * @example
 * new Response(watchBody(response.body, { onChunk: count, onEnd: report }), response);
 */
export function watchBody(source: ReadableStream<Uint8Array>, watcher: BodyWatcher): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  let ended = false;
  const end = (error?: unknown) => {
    if (ended) return;
    ended = true;
    watcher.onEnd(error);
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        // A pull that enqueues nothing is not pulled again: read on until there is something to pass.
        for (;;) {
          const { done, value } = await reader.read();
          if (done) {
            end();
            controller.close();
            return;
          }
          const passed = watcher.onChunk(value);
          if (passed.byteLength === 0) continue;
          controller.enqueue(passed);
          return;
        }
      } catch (error) {
        end(error);
        controller.error(error);
        void reader.cancel(error).catch(() => undefined);
      }
    },
    cancel(reason) {
      end(reason ?? new Error("cancelled"));
      return reader.cancel(reason);
    },
  });
}

/** The error a body fails with when it passes its cap. */
export function tooLargeError(maxBytes: number, bytes: number): ToolexecError {
  return new ToolexecError("OUTPUT_TOO_LARGE", `The server's answer exceeded ${maxBytes} bytes (maxResponseBytes)`, { details: { maxResponseBytes: maxBytes, bytes } });
}

/** Counts a JSON body's bytes and fails it past `maxBytes`. */
export function countingWatcher(maxBytes: number, onEnd: (error?: unknown) => void): BodyWatcher {
  let bytes = 0;
  return {
    onChunk(chunk) {
      bytes += chunk.byteLength;
      if (bytes > maxBytes) throw tooLargeError(maxBytes, bytes);
      return chunk;
    },
    onEnd,
  };
}

export interface SseWatch {
  /** The server's reconnection delay, from a `retry:` field. */
  onRetryHint(ms: number): void;
  /** The stream ended or broke; `resumable` when the server had sent an event id. */
  onEnd(resumable: boolean, error?: unknown): void;
  /**
   * Given: an event past the cap is dropped, not the stream, and reported with the id of the
   * request it answered (undefined when its text does not show it).
   */
  onDropped?(requestId: number | undefined): void;
}

/** Kept of the start and the end of a dropped event, to find the request id it answered. */
const EDGE_CHARS = 200;
const EMPTY = new Uint8Array(0);
/** `{"jsonrpc":"2.0","id":7,…` at the start of a data field, or `…,"jsonrpc":"2.0","id":7}` at its end (the SDK's order). */
const LEADING_ID = /^data:\s*\{\s*"jsonrpc"\s*:\s*"2\.0"\s*,\s*"id"\s*:\s*(\d+)/m;
const TRAILING_ID = /"jsonrpc"\s*:\s*"2\.0"\s*,\s*"id"\s*:\s*(\d+)\s*\}\s*$/;

/**
 * Reads SSE fields along the stream. An event larger than `maxEventBytes` fails the stream, or,
 * with `watch.onDropped`, is left out of it: then each event is passed on only once complete.
 */
export function sseWatcher(maxEventBytes: number, watch: SseWatch): BodyWatcher {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  const dropping = watch.onDropped !== undefined;
  let partial = "";
  let eventBytes = 0;
  let resumable = false;
  /** Drop mode: the complete lines of the event in progress, held until its blank line. */
  let held = "";
  /** Drop mode: the event in progress passed the cap; its start, and its latest text. */
  let dropped: { head: string; tail: string } | undefined;
  let droppedEvents = 0;

  const endDropped = () => {
    const match = LEADING_ID.exec(dropped!.head) ?? TRAILING_ID.exec(dropped!.tail);
    dropped = undefined;
    watch.onDropped!(match ? Number(match[1]) : undefined);
  };
  const startDropping = (text: string) => {
    dropped = { head: text.slice(0, EDGE_CHARS), tail: text.slice(-EDGE_CHARS) };
    droppedEvents++;
    held = "";
  };

  /** Reads one complete line; in drop mode returns the text to pass on (a whole event, or nothing). */
  const readLine = (line: string): string => {
    if (line === "") {
      eventBytes = 0;
      if (dropped) {
        endDropped();
        return "";
      }
      const event = held;
      held = "";
      return `${event}\n`;
    }
    eventBytes += line.length + 1;
    if (dropped) {
      dropped.tail = (dropped.tail + line).slice(-EDGE_CHARS);
      return "";
    }
    if (eventBytes > maxEventBytes) {
      if (!dropping) throw tooLargeError(maxEventBytes, eventBytes);
      startDropping(held + line);
      return "";
    }
    if (line.startsWith("retry:")) {
      const ms = Number(line.slice(6).trim());
      if (Number.isInteger(ms) && ms >= 0) watch.onRetryHint(ms);
    } else if (line.startsWith("id:") && line.slice(3).trim() !== "") {
      resumable = true;
    }
    if (dropping) held += `${line}\n`;
    return "";
  };

  return {
    onChunk(chunk) {
      const cleanStart = held === "" && partial === "" && !dropped;
      const droppedBefore = droppedEvents;
      const lines = (partial + decoder.decode(chunk, { stream: true })).split(/\r\n|\r|\n/);
      partial = lines.pop() ?? "";
      let passed = "";
      for (const line of lines) passed += readLine(line);
      if (eventBytes + partial.length > maxEventBytes) {
        if (!dropping) throw tooLargeError(maxEventBytes, eventBytes + partial.length);
        if (dropped) dropped.tail = (dropped.tail + partial).slice(-EDGE_CHARS);
        else startDropping(held + partial);
        // Only the end of a line being dropped is needed, not its megabytes.
        eventBytes += partial.length;
        partial = "";
      }
      if (!dropping) return chunk;
      // Whole events in one chunk (the usual case) pass as they came, without a copy.
      if (cleanStart && held === "" && partial === "" && !dropped && droppedEvents === droppedBefore) return chunk;
      return passed === "" ? EMPTY : encoder.encode(passed);
    },
    onEnd: (error) => watch.onEnd(resumable, error),
  };
}
