/** Reading providers' answers: where their result lists keep each field, and what a JSON object is. */
import type { FoundResult } from "./search-provider.js";

/** A JSON object (not an array, not null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Where a provider's result items keep the snippet and the publication date (title and url are named so by all). */
export interface ResultFieldNames {
  snippet: string;
  /** The first present one is used. */
  published: string[];
}

/**
 * The found results of a provider's result list, by the names its documentation gives the fields.
 *
 * @example
 * pickResults([{ title: "T", url: "https://a.example", content: "S" }], { snippet: "content", published: ["publishedDate"] });
 */
export function pickResults(items: unknown[], names: ResultFieldNames): FoundResult[] {
  return items.map((item) => {
    const result = isRecord(item) ? item : {};
    const published = names.published.map((name) => result[name]).find((value) => value !== undefined && value !== null);
    return { title: result.title, url: result.url, snippet: result[names.snippet], published };
  });
}

/** An answer whose results are its top-level `results` array (Tavily, SearXNG). */
export function readTopLevelResults(body: unknown, names: ResultFieldNames): { results: FoundResult[] } | { problem: string } {
  if (!isRecord(body) || !Array.isArray(body.results)) return { problem: 'expected an object with a "results" array' };
  return { results: pickResults(body.results, names) };
}
