/**
 * The fetch handed to the SDK's HTTP and SSE transports. It tells the session what the SDK does not:
 * which JSON-RPC requests a POST carried and what status came back (with `Retry-After`), the SSE
 * `retry:` hint, a response stream that ended without an answer, a reconnecting event stream that
 * found its session gone, and answers past the size cap.
 */
import { parseRetryAfter } from "../../core/retry/backoff-delay.js";
import type { FetchLike } from "./guarded-fetch.js";
import { countingWatcher, sseWatcher, watchBody } from "./watch-response-body.js";

export interface HttpObserver {
  /** A POST carrying these request ids got `status`; `retryAfterMs` from a 429 or 503. */
  onPostStatus(ids: number[], status: number, retryAfterMs: number | undefined): void;
  onRetryHint(ms: number): void;
  /** The SSE stream answering a POST ended or broke; `resumable` when the SDK will resume it. */
  onPostStreamEnd(ids: number[], resumable: boolean, error?: unknown): void;
  /** The long-lived GET stream ended or broke. For legacy SSE that is the end of the session. */
  onEventStreamEnd(error?: unknown): void;
  /** Re-opening the GET stream failed: the server lost the session or is down. */
  onEventStreamLost(reason: string): void;
  /** An answer for these request ids passed `maxResponseBytes`. */
  onTooLarge(ids: number[]): void;
  /** An event of the long-lived GET stream passed `maxResponseBytes` and was left out; the id it answered, when known. */
  onEventTooLarge(id: number | undefined): void;
}

export interface ObservedFetchOptions {
  transport: "http" | "sse";
  maxResponseBytes: number;
  observer: HttpObserver;
}

/**
 * A request as the SDK serializes it, `{"method":…,"jsonrpc":"2.0","id":7}`: the first member is
 * the method and the last the numeric id, so the id is read without parsing the body again.
 */
const LAST_NUMERIC_ID = /"id":(\d+)\}$/;

/** Ids of the JSON-RPC requests in a POST body (a message or a batch). */
function requestIds(body: unknown): number[] {
  if (typeof body !== "string") return [];
  if (body.startsWith('{"method":"')) {
    const id = LAST_NUMERIC_ID.exec(body)?.[1];
    if (id !== undefined) return [Number(id)];
  }
  try {
    const parsed = JSON.parse(body) as unknown;
    const messages = Array.isArray(parsed) ? parsed : [parsed];
    return messages
      .filter((message): message is { id: number; method: string } => typeof message?.method === "string" && typeof message?.id === "number")
      .map((message) => message.id);
  } catch {
    return [];
  }
}

/**
 * A signal for one exchange that aborts with `parent` (the transport's), and `release` to stop
 * following it. Undici hangs a listener on the signal of every request and drops it only when that
 * request is garbage-collected; on the transport's one long-lived signal they pile up, every later
 * fetch pays to count them, and a busy host sees MaxListenersExceededWarning. This one is
 * released as soon as the exchange is over.
 */
function followSignal(parent: AbortSignal | null | undefined): { signal?: AbortSignal; release(): void } {
  if (!parent) return { release: () => {} };
  const controller = new AbortController();
  const forward = () => controller.abort(parent.reason);
  if (parent.aborted) forward();
  else parent.addEventListener("abort", forward, { once: true });
  return { signal: controller.signal, release: () => parent.removeEventListener("abort", forward) };
}

/**
 * Undici clones every request (and tees its body) in case it meets a redirect, unless redirects are
 * refused and the request has no window: ~30 µs of CPU per POST. The SDK sends POSTs with
 * `redirect: "manual"` (it follows same-origin redirects itself), so they go out refusing them
 * instead, and the rare one that meets a redirect is sent again as the SDK asked, for the SDK to
 * see the redirect. A redirect means the server did not take the request: sending it again cannot
 * run it twice.
 */
const WITHOUT_REDIRECTS = { window: null, redirect: "error" } as const;
const isRefusedRedirect = (error: unknown) => (error as { cause?: { message?: unknown } } | undefined)?.cause?.message === "unexpected redirect";

const mediaType = (response: Response) => (response.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();

/**
 * @example
 * const fetch = createObservedFetch(globalThis.fetch, { transport: "http", maxResponseBytes, observer });
 * new StreamableHTTPClientTransport(url, { fetch });
 */
export function createObservedFetch(base: FetchLike, options: ObservedFetchOptions): FetchLike {
  const { observer, maxResponseBytes } = options;
  // Event streams that actually opened: a GET after one of them is a reconnect. A GET after a
  // redirect or an error is not (the EventSource follows redirects with GETs of its own).
  let openedEventStreams = 0;
  return async (input, init) => {
    const method = (init?.method ?? "GET").toUpperCase();
    const isEventStream = method === "GET";
    const reopening = isEventStream && openedEventStreams > 0;
    // Legacy SSE: a second GET is the EventSource reconnecting, which lands on a new, uninitialized
    // session. Refuse it (204 tells an EventSource to stop); the plugin re-initializes itself.
    if (reopening && options.transport === "sse") return new Response(null, { status: 204 });
    const ids = method === "POST" ? requestIds(init?.body) : [];
    const exchange = followSignal(init?.signal);
    let response: Response;
    try {
      const followed = exchange.signal ? { ...init, signal: exchange.signal } : init;
      // Only a string body can be sent a second time.
      if (method === "POST" && typeof init?.body === "string" && (init.redirect === undefined || init.redirect === "manual")) {
        try {
          response = await base(input, { ...followed, ...WITHOUT_REDIRECTS } as RequestInit);
        } catch (error) {
          if (!isRefusedRedirect(error)) throw error;
          response = await base(input, followed);
        }
      } else {
        response = await base(input, followed);
      }
    } catch (error) {
      exchange.release();
      if (reopening && !init?.signal?.aborted) observer.onEventStreamLost((error as Error)?.message ?? String(error));
      throw error;
    }
    if (method === "POST") {
      const retryAfterMs = response.status === 429 || response.status === 503 ? parseRetryAfter(response.headers.get("retry-after"), Date.now()) : undefined;
      observer.onPostStatus(ids, response.status, retryAfterMs);
    }
    if (reopening && (response.status === 404 || response.status === 400)) observer.onEventStreamLost(`HTTP ${response.status}`);
    const type = response.ok && response.body !== null ? mediaType(response) : "";
    if (isEventStream && type === "text/event-stream") openedEventStreams++;
    const watched = type === "text/event-stream" || (type === "application/json" && ids.length > 0);
    // A body passed through unwatched (an error text, a 202's "Accepted") is read or cancelled by
    // the SDK at once; it stops following the transport's signal now, since its end is not seen here.
    if (!watched || response.body === null) {
      exchange.release();
      return response;
    }
    let body: ReadableStream<Uint8Array>;
    if (type === "text/event-stream") {
      body = watchBody(
        response.body,
        sseWatcher(maxResponseBytes, {
          onRetryHint: (ms) => observer.onRetryHint(ms),
          // The GET stream carries every answer of a session: one oversized answer must not end it.
          ...(isEventStream ? { onDropped: (id: number | undefined) => observer.onEventTooLarge(id) } : {}),
          onEnd: (resumable, error) => {
            exchange.release();
            if (isToolexecTooLarge(error)) observer.onTooLarge(ids);
            if (isEventStream) observer.onEventStreamEnd(error);
            else observer.onPostStreamEnd(ids, resumable, error);
          },
        }),
      );
    } else {
      body = watchBody(
        response.body,
        countingWatcher(maxResponseBytes, (error) => {
          exchange.release();
          if (isToolexecTooLarge(error)) observer.onTooLarge(ids);
        }),
      );
    }
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

const isToolexecTooLarge = (error: unknown) => (error as { code?: unknown } | undefined)?.code === "OUTPUT_TOO_LARGE";
