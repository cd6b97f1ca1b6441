/**
 * The request bytes each HTTP session has in flight: bodies read and not yet answered. Each body is
 * bounded by `maxBodyBytes`, but a session may send many at once (its calls run concurrently), so
 * without a cap per session one client could hold `maxConcurrentCalls` × `maxBodyBytes` (128 MiB by
 * default) in the host's memory, and each of `maxSessions` sessions as much.
 */
import type { ServerResponse } from "node:http";

/** Request bytes one session may have in flight (read, not yet answered). */
export const DEFAULT_MAX_SESSION_BYTES = 16 * 1024 * 1024;

export interface SessionBytes {
  /**
   * A meter for one request of session `id`: call it with each chunk's size as the body is read; it
   * returns the refusal once the session's bytes in flight would pass the cap while another of its
   * requests is in flight (a lone request is bounded by `maxBodyBytes` alone), else undefined. What
   * it counted is given back when `response` closes.
   */
  meter(id: string, response: ServerResponse): (bytes: number) => string | undefined;
}

/**
 * @example
 * const sessionBytes = createSessionBytes(16 * 1024 * 1024);
 * const read = await readBody(request, limit, sessionBytes.meter(id, response));
 */
export function createSessionBytes(maxBytes: number): SessionBytes {
  const inFlight = new Map<string, { bytes: number; requests: number }>();
  return {
    meter(id, response) {
      const entry = inFlight.get(id) ?? { bytes: 0, requests: 0 };
      inFlight.set(id, entry);
      entry.requests++;
      let counted = 0;
      response.once("close", () => {
        entry.bytes -= counted;
        if (--entry.requests === 0) inFlight.delete(id);
      });
      return (bytes) => {
        if (entry.requests > 1 && entry.bytes + bytes > maxBytes) {
          return `Too Many Requests: this session's requests in flight would hold more than ${maxBytes} bytes (maxSessionBytes); wait for an answer before sending more`;
        }
        entry.bytes += bytes;
        counted += bytes;
        return undefined;
      };
    },
  };
}
