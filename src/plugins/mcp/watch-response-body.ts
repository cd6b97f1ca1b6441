/**
 * Reads along a response body as the SDK consumes it: its size, and for SSE the server's `retry:`
 * hint and whether it sent event ids (which make the stream resumable). The bytes pass unchanged;
 * past a size cap the body fails with OUTPUT_TOO_LARGE instead of growing without bound.
 */
import { ToolexecError } from "../../core/errors/toolexec-error.js";

export interface BodyWatcher {
  /** Sees each chunk before the consumer; throwing fails the body with that error. */
  onChunk(chunk: Uint8Array): void;
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
        const { done, value } = await reader.read();
        if (done) {
          end();
          controller.close();
          return;
        }
        watcher.onChunk(value);
        controller.enqueue(value);
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
    },
    onEnd,
  };
}

export interface SseWatch {
  /** The server's reconnection delay, from a `retry:` field. */
  onRetryHint(ms: number): void;
  /** The stream ended or broke; `resumable` when the server had sent an event id. */
  onEnd(resumable: boolean, error?: unknown): void;
}

/** Reads SSE fields along the stream; one event larger than `maxEventBytes` fails it. */
export function sseWatcher(maxEventBytes: number, watch: SseWatch): BodyWatcher {
  const decoder = new TextDecoder();
  let partial = "";
  let eventBytes = 0;
  let resumable = false;
  const readLine = (line: string) => {
    if (line === "") {
      eventBytes = 0;
      return;
    }
    eventBytes += line.length + 1;
    if (line.startsWith("retry:")) {
      const ms = Number(line.slice(6).trim());
      if (Number.isInteger(ms) && ms >= 0) watch.onRetryHint(ms);
    } else if (line.startsWith("id:") && line.slice(3).trim() !== "") {
      resumable = true;
    }
  };
  return {
    onChunk(chunk) {
      const lines = (partial + decoder.decode(chunk, { stream: true })).split(/\r\n|\r|\n/);
      partial = lines.pop() ?? "";
      for (const line of lines) readLine(line);
      if (eventBytes + partial.length > maxEventBytes) throw tooLargeError(maxEventBytes, eventBytes + partial.length);
    },
    onEnd: (error) => watch.onEnd(resumable, error),
  };
}
