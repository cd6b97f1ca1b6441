/** The `web_search` tool as models see it: what it is for, its arguments and the shape of its answer. */
import type { WebSearchSettings } from "./config/resolve-web-search-config.js";
import type { ToolDefinition } from "../../core/plugin-contract.js";
import { WEB_SEARCH_TOOL_NAME } from "../../core/tool-names.js";
import { TIME_RANGES } from "./search-provider.js";

/** Longest query: Brave's documented limit (400 characters), and Tavily's advice. */
const MAX_QUERY_CHARS = 400;

/** The definition for the configured limits: `maxResults` may not exceed the configured one. */
export function webSearchDefinition(settings: WebSearchSettings): ToolDefinition {
  return {
    name: WEB_SEARCH_TOOL_NAME,
    description:
      "Search the web and get current, online information: news and recent events, documentation, facts, prices, releases, " +
      "anything that may have changed or that you do not know. Returns the best-matching pages, each with title, url, a snippet " +
      "and when it was published (if known). Use it to look up something online, check today's news, or find pages to read and cite.",
    inputSchema: {
      type: "object",
      properties: {
        query: { type: "string", minLength: 1, maxLength: MAX_QUERY_CHARS, pattern: "\\S", description: "What to search for, as you would type it into a search engine." },
        maxResults: { type: "integer", minimum: 1, maximum: settings.maxResults, description: `How many results (default and most: ${settings.maxResults}).` },
        timeRange: { type: "string", enum: [...TIME_RANGES], description: "Only pages from the last day, week, month or year (for news and recent events)." },
      },
      required: ["query"],
      additionalProperties: false,
    },
    outputSchema: {
      type: "object",
      properties: {
        results: {
          type: "array",
          items: {
            type: "object",
            properties: {
              title: { type: "string" },
              url: { type: "string" },
              snippet: { type: "string" },
              published: { type: "string", description: "When the page was published: ISO 8601, or the provider's words (\"2 days ago\")." },
            },
            required: ["title", "url", "snippet"],
            additionalProperties: false,
          },
        },
      },
      required: ["results"],
      additionalProperties: false,
    },
    annotations: { title: "Search the web", readOnlyHint: true, idempotentHint: true, openWorldHint: true },
    timeoutMs: settings.timeoutMs,
    parallel: true,
  };
}
