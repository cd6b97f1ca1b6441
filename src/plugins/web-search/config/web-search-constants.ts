/** web_search's providers, levels, defaults and bounds, in a module without zod (the start path reads them). */

/** The providers `web_search` speaks to. */
export const WEB_SEARCH_PROVIDERS = ["brave", "tavily", "searxng"] as const;
export type WebSearchProviderName = (typeof WEB_SEARCH_PROVIDERS)[number];

/** Safe-search levels, mapped to each provider's own values. */
export const SAFE_SEARCH_LEVELS = ["off", "moderate", "strict"] as const;
export type SafeSearchLevel = (typeof SAFE_SEARCH_LEVELS)[number];

/** Results of one search when the call names no count; also the most it may ask for unless raised. */
export const DEFAULT_WEB_SEARCH_MAX_RESULTS = 10;
/** Brave and Tavily return at most 20 results per request; SearXNG pages are about that size too. */
export const MAX_WEB_SEARCH_RESULTS = 20;
export const DEFAULT_WEB_SEARCH_TIMEOUT_MS = 15_000;
/** A search that takes longer than this is not coming back. */
export const MAX_WEB_SEARCH_TIMEOUT_MS = 600_000;
export const DEFAULT_WEB_SEARCH_RETRIES = 2;
export const MAX_WEB_SEARCH_RETRIES = 10;
