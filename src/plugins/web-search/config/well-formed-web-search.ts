/** A fast vouch for a `webSearch` object (tools.json's or the option's): true only where its zod schema accepts; false: ask zod. */
import { integerFrom, isNonEmptyString, objectOf, oneOf, type Check } from "../../../core/config/well-formed-checks.js";
import { MAX_WEB_SEARCH_RESULTS, MAX_WEB_SEARCH_RETRIES, MAX_WEB_SEARCH_TIMEOUT_MS, SAFE_SEARCH_LEVELS, WEB_SEARCH_PROVIDERS } from "./web-search-constants.js";

/** The keys `webSearchConfigSchema` requires (the others are optional). */
export const WEB_SEARCH_REQUIRED_KEYS = ["provider"] as const;

/** One check per key of `webSearchConfigSchema`, each no looser than zod's. */
export const WEB_SEARCH_CHECKS: ReadonlyMap<string, Check> = new Map<string, Check>([
  ["provider", oneOf(WEB_SEARCH_PROVIDERS)],
  ["apiKey", isNonEmptyString],
  ["url", isNonEmptyString],
  ["maxResults", integerFrom(1, MAX_WEB_SEARCH_RESULTS)],
  ["timeoutMs", integerFrom(1, MAX_WEB_SEARCH_TIMEOUT_MS)],
  ["retries", integerFrom(0, MAX_WEB_SEARCH_RETRIES)],
  ["safeSearch", oneOf(SAFE_SEARCH_LEVELS)],
]);

export const isWellFormedWebSearch: Check = objectOf(WEB_SEARCH_CHECKS, WEB_SEARCH_REQUIRED_KEYS);
