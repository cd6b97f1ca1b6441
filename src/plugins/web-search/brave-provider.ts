/**
 * Brave Search API, web search: `GET {url}/res/v1/web/search?q=…` with the key in the
 * `X-Subscription-Token` header. Documented at https://api-dashboard.search.brave.com/api-reference/web/search/get
 * (query parameters: `count` 1–20, `safesearch` off|moderate|strict, `freshness` pd|pw|pm|py,
 * `result_filter`), .../documentation/web-search/responses (`{ type: "search", web: { results:
 * [{ title, url, description, age, page_age }] } }`, descriptions marked up with `<strong>`) and
 * .../documentation/web-search/response-headers (`X-RateLimit-Remaining` / `X-RateLimit-Reset`:
 * one comma-separated value per window, e.g. per second and per month).
 * A key Brave does not accept is answered 422 with `error.code` SUBSCRIPTION_TOKEN_INVALID, not 401.
 */
import { isRecord, pickResults } from "./found-results.js";
import type { SearchProvider, TimeRange } from "./search-provider.js";

const FRESHNESS: Record<TimeRange, string> = { day: "pd", week: "pw", month: "pm", year: "py" };
const KEY_ERRORS = new Set(["SUBSCRIPTION_TOKEN_INVALID", "SUBSCRIPTION_TOKEN_MISSING"]);

/** `{ error: {...} }`, or the list form `{ errors: [{...}] }` some of Brave's examples show. */
function errorObject(body: unknown): Record<string, unknown> | undefined {
  if (!isRecord(body)) return undefined;
  if (isRecord(body.error)) return body.error;
  return Array.isArray(body.errors) && isRecord(body.errors[0]) ? body.errors[0] : undefined;
}

/** "1, 1419704" → [1, 1419704]; undefined unless every part is a number. */
function windowValues(header: string | null): number[] | undefined {
  if (header === null) return undefined;
  const values = header.split(",").map((part) => Number(part.trim()));
  return values.every((value) => Number.isFinite(value) && value >= 0) ? values : undefined;
}

export const braveProvider: SearchProvider = {
  title: "Brave Search",
  markup: true,
  request(search, settings) {
    const url = new URL(`${settings.url}/res/v1/web/search`);
    url.searchParams.set("q", search.query);
    url.searchParams.set("count", String(search.count));
    url.searchParams.set("result_filter", "web");
    if (search.safeSearch !== undefined) url.searchParams.set("safesearch", search.safeSearch);
    if (search.timeRange !== undefined) url.searchParams.set("freshness", FRESHNESS[search.timeRange]);
    return { url, method: "GET", headers: { accept: "application/json", "x-subscription-token": settings.apiKey ?? "" } };
  },
  readResults(body) {
    if (!isRecord(body) || body.type !== "search") return { problem: 'expected an object with "type": "search"' };
    if (body.web === undefined) return { results: [] };
    if (!isRecord(body.web) || !Array.isArray(body.web.results)) return { problem: 'expected "web.results" to be an array' };
    return { results: pickResults(body.web.results, { snippet: "description", published: ["page_age", "age"] }) };
  },
  errorDetail(body) {
    const error = errorObject(body);
    if (error === undefined) return undefined;
    const detail = typeof error.detail === "string" ? error.detail : undefined;
    const code = typeof error.code === "string" ? error.code : undefined;
    return detail && code ? `${code}: ${detail}` : (detail ?? code);
  },
  classifyFailure(status, body) {
    const code = errorObject(body)?.code;
    if (typeof code === "string" && KEY_ERRORS.has(code)) {
      return { code: "AUTH_FAILED", message: `Brave Search rejected the API key (HTTP ${status} ${code})` };
    }
    return undefined;
  },
  retryAfterMs(headers) {
    const remaining = windowValues(headers.get("x-ratelimit-remaining"));
    const reset = windowValues(headers.get("x-ratelimit-reset"));
    if (reset === undefined || reset.length === 0) return undefined;
    // The wait is set by the longest window that is used up (a spent monthly quota is not worth waiting for a second).
    const spent = remaining?.length === reset.length ? reset.filter((_, index) => remaining[index] === 0) : [];
    return Math.max(...(spent.length > 0 ? spent : [reset[0]!])) * 1000;
  },
};
