/**
 * What a web search provider is to the plugin: how to ask it (one HTTP request), where its answer
 * keeps the results, and what its own error answers mean. The sending, retrying and bounding are
 * shared (`send-search-request.ts`); a provider is a plain object of pure functions.
 */
import type { SafeSearchLevel } from "./config/web-search-config-schema.js";
import type { WebSearchSettings } from "./config/resolve-web-search-config.js";
import type { ToolErrorInfo } from "../../core/plugin-contract.js";

/** How recent results must be, when the call says. */
export const TIME_RANGES = ["day", "week", "month", "year"] as const;
export type TimeRange = (typeof TIME_RANGES)[number];

/** One search, as the tool's arguments and the settings resolve it. */
export interface SearchRequest {
  query: string;
  count: number;
  timeRange?: TimeRange;
  safeSearch?: SafeSearchLevel;
}

/** One result as the tool returns it. */
export interface WebSearchResult {
  title: string;
  url: string;
  snippet: string;
  /** When the page was published: ISO 8601 (UTC) when the provider gives a time with its zone, else as it wrote it ("2024-04-24", "2 days ago"). */
  published?: string;
}

/** A result's fields as found in a provider's answer, before they are checked and bounded. */
export interface FoundResult {
  title: unknown;
  url: unknown;
  snippet: unknown;
  published?: unknown;
}

/** The HTTP request for one search. */
export interface ProviderRequest {
  url: URL;
  method: "GET" | "POST";
  headers: Record<string, string>;
  body?: string;
}

export interface SearchProvider {
  /** The provider's name in messages: "Brave Search". */
  title: string;
  /** Its titles and snippets carry HTML markup (Brave marks the query's words with `<strong>`). */
  markup: boolean;
  /** The request for `search`, with the key where the provider's documentation puts it. */
  request(search: SearchRequest, settings: WebSearchSettings): ProviderRequest;
  /** The results of a successful answer, or what is wrong with its shape. */
  readResults(body: unknown): { results: FoundResult[] } | { problem: string };
  /** A short reason taken from an error answer's body, when it has one. */
  errorDetail(body: unknown): string | undefined;
  /**
   * What an error answer means when the provider documents it apart from the common rules
   * (401/403 → AUTH_FAILED; 429, 5xx → retried); undefined leaves it to them.
   */
  classifyFailure?(status: number, body: unknown): Pick<ToolErrorInfo, "code" | "message"> | undefined;
  /** How long the provider asks to wait when it sends no Retry-After (Brave's X-RateLimit-Reset). */
  retryAfterMs?(headers: Headers): number | undefined;
}
