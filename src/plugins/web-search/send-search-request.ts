/**
 * Sends one search to a provider within the call's budget, and says what came back:
 * - 2xx: the body, parsed as JSON (not JSON → INVALID_OUTPUT);
 * - 429, 408, 5xx, a refused or broken connection: retried with exponential backoff and jitter,
 *   waiting at least what the provider asks (Retry-After, or the provider's own header); when the
 *   retries are spent, or the wait would pass the call's deadline → SERVICE_UNAVAILABLE;
 * - 401/403 → AUTH_FAILED; a provider's documented special cases (Brave's 422 for a bad key,
 *   Tavily's 432/433, SearXNG's 403) as the provider says; other 4xx → INVALID_INPUT;
 * - a redirect → SERVICE_UNAVAILABLE, never followed (it would carry the key to another address);
 * - a body past the size cap → OUTPUT_TOO_LARGE.
 * Messages name the provider and say what to do; a key echoed back by a provider is scrubbed.
 */
import { abortReasonCode, type ToolErrorInfo } from "../../core/plugin-contract.js";
import { backoffDelay, parseRetryAfter, sleep } from "../../core/retry/backoff-delay.js";
import { toolError } from "../../core/tool-result.js";
import { readLimitedBody } from "./read-limited-body.js";
import { clip } from "./result-text.js";
import type { ProviderRequest, SearchProvider } from "./search-provider.js";

/** Largest answer read from a provider, in bytes: twenty results with extras are well under it. */
export const MAX_PROVIDER_RESPONSE_BYTES = 2 * 1024 * 1024;
/** The backoff between retries when the provider names no wait. */
const WEB_SEARCH_BACKOFF = { minDelayMs: 300, maxDelayMs: 5000 } as const;
/** Longest piece of a provider's error text quoted in a message. */
const MAX_DETAIL_CHARS = 200;

export interface SendOptions {
  signal: AbortSignal;
  deadline: number;
  retries: number;
  /** Hides the key if a provider quotes it back. */
  scrub(text: string): string;
}

export type SendOutcome = { ok: true; body: unknown } | { ok: false; error: ToolErrorInfo };

/** A failure worth another attempt, and how long the provider asked to wait. */
interface Retryable {
  reason: string;
  httpStatus?: number;
  retryAfterMs?: number;
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/** The provider's own words about an error, short: its documented field, else the start of the text. */
function errorDetail(provider: SearchProvider, text: string, body: unknown, scrub: (text: string) => string): string {
  const detail = provider.errorDetail(body) ?? (body === undefined ? text : "");
  const clipped = clip(scrub(detail), MAX_DETAIL_CHARS);
  return clipped === "" ? "" : `: ${clipped}`;
}

function isRetryableStatus(status: number): boolean {
  return status === 429 || status === 408 || status >= 500;
}

/** Why fetch failed, in words: the system error code where there is one (ECONNREFUSED, ENOTFOUND). */
function connectionFailure(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } })?.cause;
  if (typeof cause?.code === "string") return cause.code;
  return typeof cause?.message === "string" ? cause.message : ((error as Error)?.message ?? String(error));
}

/**
 * What one answer means: a final outcome (the body, or a failure not worth repeating), or a
 * failure worth another attempt. Consumes the body.
 */
async function readAnswer(provider: SearchProvider, where: string, response: Response, scrub: (text: string) => string): Promise<{ final: SendOutcome } | { retry: Retryable }> {
  const { status } = response;
  const about = { provider: provider.title, httpStatus: status };
  if (status >= 300 && status < 400) {
    await response.body?.cancel().catch(() => undefined);
    const location = response.headers.get("location");
    const message = `${where} answered with a redirect (HTTP ${status}${location ? ` to ${location}` : ""}), which is not followed; set webSearch.url to the address it leads to`;
    return { final: toolError("SERVICE_UNAVAILABLE", message, about) };
  }
  const read = await readLimitedBody(response, MAX_PROVIDER_RESPONSE_BYTES);
  if (!read.ok) {
    const message = `${where} answered more than ${MAX_PROVIDER_RESPONSE_BYTES} bytes; the answer was dropped. Ask for fewer results`;
    return { final: toolError("OUTPUT_TOO_LARGE", message, { provider: provider.title, maxResponseBytes: MAX_PROVIDER_RESPONSE_BYTES }) };
  }
  const parsed = parseJson(read.text);
  if (status >= 200 && status < 300) {
    if (parsed.ok) return { final: { ok: true, body: parsed.value } };
    return { final: toolError("INVALID_OUTPUT", `${where} answered HTTP ${status} with a body that is not JSON${errorDetail(provider, read.text, undefined, scrub)}`, about) };
  }
  const body = parsed.ok ? parsed.value : undefined;
  const detail = errorDetail(provider, read.text, body, scrub);
  const special = provider.classifyFailure?.(status, body);
  if (special !== undefined) return { final: toolError(special.code, `${special.message}${detail}`, about) };
  if (status === 401 || status === 403) {
    return { final: toolError("AUTH_FAILED", `${provider.title} rejected the API key (HTTP ${status}${detail}); check webSearch.apiKey (the variable it names) and the key's plan`, about) };
  }
  if (!isRetryableStatus(status)) {
    return { final: toolError("INVALID_INPUT", `${provider.title} refused the search (HTTP ${status}${detail}); shorten or simplify the query`, about) };
  }
  const retryAfterMs = parseRetryAfter(response.headers.get("retry-after"), Date.now()) ?? provider.retryAfterMs?.(response.headers);
  const reason = status === 429 ? `rate-limited the search (HTTP 429${detail})` : `failed (HTTP ${status}${detail})`;
  return { retry: { reason, httpStatus: status, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) } };
}

/**
 * @example
 * const outcome = await sendSearchRequest(braveProvider, braveProvider.request(search, settings), { signal, deadline, retries: 2, scrub });
 */
export async function sendSearchRequest(provider: SearchProvider, request: ProviderRequest, options: SendOptions): Promise<SendOutcome> {
  const { signal, deadline } = options;
  const where = `${provider.title} (${request.url.host})`;
  const aborted = (): SendOutcome => {
    const code = abortReasonCode(signal);
    const messages: Partial<Record<ToolErrorInfo["code"], string>> = {
      TIMEOUT: `${where} did not answer before the call's deadline; raise webSearch.timeoutMs or try again`,
      EXECUTOR_CLOSED: "The executor closed during the search",
    };
    return toolError(code, messages[code] ?? "The search was cancelled by its caller", { provider: provider.title });
  };
  for (let attempt = 0; ; attempt++) {
    if (signal.aborted) return aborted();
    let retryable: Retryable;
    try {
      const response = await fetch(request.url, { method: request.method, headers: request.headers, body: request.body, signal, redirect: "manual" });
      const answer = await readAnswer(provider, where, response, options.scrub);
      if ("final" in answer) return answer.final;
      retryable = answer.retry;
    } catch (error) {
      if (signal.aborted) return aborted();
      retryable = { reason: `could not be reached (${options.scrub(connectionFailure(error))})` };
    }
    const details = {
      provider: provider.title,
      attempts: attempt + 1,
      ...(retryable.httpStatus === undefined ? {} : { httpStatus: retryable.httpStatus }),
      ...(retryable.retryAfterMs === undefined ? {} : { retryAfterMs: retryable.retryAfterMs }),
    };
    if (attempt >= options.retries) {
      return toolError("SERVICE_UNAVAILABLE", `${where} ${retryable.reason}; gave up after ${attempt + 1} attempt${attempt === 0 ? "" : "s"}. Try again later, or raise webSearch.retries`, details);
    }
    const delay = Math.max(backoffDelay(WEB_SEARCH_BACKOFF, attempt), retryable.retryAfterMs ?? 0);
    if (Date.now() + delay >= deadline) {
      const asked = retryable.retryAfterMs === undefined ? "" : ` and asked to wait ${Math.ceil(retryable.retryAfterMs / 1000)} s`;
      return toolError("SERVICE_UNAVAILABLE", `${where} ${retryable.reason}${asked}; no time is left for another attempt before the call's deadline. Try again later`, details);
    }
    try {
      await sleep(delay, signal);
    } catch {
      return aborted();
    }
  }
}
