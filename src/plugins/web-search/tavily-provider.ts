/**
 * Tavily search: `POST {url}/search` with a JSON body and the key as `Authorization: Bearer …`
 * (https://docs.tavily.com/api-reference/endpoint/search: `query`, `max_results` 0–20,
 * `search_depth`, `topic`, `time_range` day|week|month|year; answer `{ results: [{ title, url,
 * content, score, published_date? }] }`). Errors (https://help.tavily.com/articles/8645538886):
 * 401 missing or invalid key, 429 too many requests, 432 plan limit and 433 pay-as-you-go limit
 * exceeded, 500; bodies are `{ detail: { error: "…" } }`.
 */
import { isRecord, readTopLevelResults } from "./found-results.js";
import type { SearchProvider } from "./search-provider.js";

export const tavilyProvider: SearchProvider = {
  title: "Tavily",
  markup: false,
  request(search, settings) {
    return {
      url: new URL(`${settings.url}/search`),
      method: "POST",
      headers: { accept: "application/json", "content-type": "application/json", authorization: `Bearer ${settings.apiKey ?? ""}` },
      body: JSON.stringify({
        query: search.query,
        max_results: search.count,
        search_depth: "basic",
        topic: "general",
        ...(search.timeRange === undefined ? {} : { time_range: search.timeRange }),
        include_answer: false,
        include_raw_content: false,
        include_images: false,
      }),
    };
  },
  readResults: (body) => readTopLevelResults(body, { snippet: "content", published: ["published_date"] }),
  errorDetail(body) {
    if (!isRecord(body)) return undefined;
    if (isRecord(body.detail) && typeof body.detail.error === "string") return body.detail.error;
    if (typeof body.detail === "string") return body.detail;
    return typeof body.error === "string" ? body.error : undefined;
  },
  classifyFailure(status) {
    if (status === 432) return { code: "SERVICE_UNAVAILABLE", message: "Tavily refused the search: the plan's usage limit is used up (HTTP 432); upgrade the plan in the Tavily dashboard or wait for the next period" };
    if (status === 433) return { code: "SERVICE_UNAVAILABLE", message: "Tavily refused the search: the pay-as-you-go limit is reached (HTTP 433); raise it in the Tavily dashboard" };
    return undefined;
  },
};
