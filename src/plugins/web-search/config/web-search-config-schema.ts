/**
 * The `webSearch` object of tools.json and of `createExecutor({ webSearch })`: which search provider
 * the `web_search` tool asks, with what key, and its limits. Its presence turns the tool on.
 */
import { z } from "zod";
import { DEFAULT_WEB_SEARCH_MAX_RESULTS, DEFAULT_WEB_SEARCH_RETRIES, DEFAULT_WEB_SEARCH_TIMEOUT_MS, MAX_WEB_SEARCH_RESULTS, MAX_WEB_SEARCH_RETRIES, MAX_WEB_SEARCH_TIMEOUT_MS, SAFE_SEARCH_LEVELS, WEB_SEARCH_PROVIDERS } from "./web-search-constants.js";

export * from "./web-search-constants.js";

/** The keys shared by tools.json and the executor option. */
export const webSearchConfigSchema = z
  .strictObject({
    provider: z.enum(WEB_SEARCH_PROVIDERS).describe("Who answers searches: brave (Brave Search API), tavily (Tavily) or searxng (a SearXNG instance's JSON API)."),
    apiKey: z
      .string()
      .min(1)
      .optional()
      .describe('API key (brave, tavily; required there). In tools.json write it as "${BRAVE_API_KEY}" or "${TAVILY_API_KEY}" to take it from the environment; it is redacted from logs.'),
    url: z
      .string()
      .min(1)
      .optional()
      .describe("Base URL of the API: required for searxng (your instance, e.g. http://127.0.0.1:8888); for brave and tavily it replaces the public endpoint (a proxy, or tests). May use ${VAR}."),
    maxResults: z
      .number()
      .int()
      .min(1)
      .max(MAX_WEB_SEARCH_RESULTS)
      .optional()
      .describe(`Most results one search returns, and what a call gets when it names no maxResults (1-${MAX_WEB_SEARCH_RESULTS}, default ${DEFAULT_WEB_SEARCH_MAX_RESULTS}).`),
    timeoutMs: z
      .number()
      .int()
      .positive()
      .max(MAX_WEB_SEARCH_TIMEOUT_MS)
      .optional()
      .describe(`Budget of one web_search call in ms, retries included (default ${DEFAULT_WEB_SEARCH_TIMEOUT_MS}).`),
    retries: z
      .number()
      .int()
      .nonnegative()
      .max(MAX_WEB_SEARCH_RETRIES)
      .optional()
      .describe(`Retries after a rate limit (429), a server error (5xx) or a failed connection, with backoff and Retry-After honoured within the budget (default ${DEFAULT_WEB_SEARCH_RETRIES}).`),
    safeSearch: z.enum(SAFE_SEARCH_LEVELS).optional().describe("Adult-content filter for brave and searxng (default: the provider's or instance's own setting). Tavily has none."),
  })
  .describe("The web_search tool: searches the web through Brave Search, Tavily or a SearXNG instance. Off unless present.");

export type WebSearchConfig = z.infer<typeof webSearchConfigSchema>;
