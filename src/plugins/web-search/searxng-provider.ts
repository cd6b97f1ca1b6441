/**
 * A SearXNG instance's search API: `GET {url}/search?q=…&format=json`
 * (https://docs.searxng.org/dev/search_api.html: `pageno`, `time_range` day|month|year (week on
 * recent versions), `safesearch` 0|1|2; the instance answers 403 when the json format is not enabled
 * in its settings.yml). The answer is `{ query, results: [{ title, url, content, publishedDate? }],
 * … }`, about 20 results a page with no count parameter, so the page is cut to the count asked for.
 * No key: a SearXNG instance is self-hosted; its limiter answers 429 when it throttles.
 */
import type { SafeSearchLevel } from "./config/web-search-config-schema.js";
import { isRecord, readTopLevelResults } from "./found-results.js";
import type { SearchProvider } from "./search-provider.js";

const SAFE_SEARCH: Record<SafeSearchLevel, string> = { off: "0", moderate: "1", strict: "2" };

export const searxngProvider: SearchProvider = {
  title: "SearXNG",
  markup: false,
  request(search, settings) {
    const url = new URL(`${settings.url}/search`);
    url.searchParams.set("q", search.query);
    url.searchParams.set("format", "json");
    url.searchParams.set("pageno", "1");
    if (search.safeSearch !== undefined) url.searchParams.set("safesearch", SAFE_SEARCH[search.safeSearch]);
    if (search.timeRange !== undefined) url.searchParams.set("time_range", search.timeRange);
    return { url, method: "GET", headers: { accept: "application/json" } };
  },
  readResults: (body) => readTopLevelResults(body, { snippet: "content", published: ["publishedDate"] }),
  errorDetail(body) {
    return isRecord(body) && typeof body.error === "string" ? body.error : undefined;
  },
  classifyFailure(status) {
    if (status === 401) {
      return { code: "AUTH_FAILED", message: "SearXNG refused the search (HTTP 401): the instance, or a proxy in front of it, asks for credentials, which web_search does not send; let this host search without them" };
    }
    if (status === 403) {
      return { code: "SERVICE_UNAVAILABLE", message: 'SearXNG refused format=json (HTTP 403): enable it on the instance, with "json" in search.formats of its settings.yml' };
    }
    return undefined;
  },
};
