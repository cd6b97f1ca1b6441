/**
 * Turns a result found in a provider's answer into the tool's `{ title, url, snippet, published? }`:
 * only http(s) URLs, text without markup, whitespace collapsed and lengths bounded, times with a zone
 * in ISO 8601. Every pattern here is linear, so no answer can stall the event loop.
 */
import type { FoundResult, WebSearchResult } from "./search-provider.js";

/** Longest title kept, in characters. */
const MAX_TITLE_CHARS = 300;
/** Longest snippet kept, in characters: enough to judge a page, short enough for a model's context. */
const MAX_SNIPPET_CHARS = 1000;
const MAX_URL_CHARS = 2048;
const MAX_PUBLISHED_CHARS = 100;

const NAMED_ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

/** `<strong>Node</strong> &amp; npm` → `Node & npm`: Brave marks the query's words in its snippets. */
function stripMarkup(text: string): string {
  return text.replace(/<[^<>]*>/g, "").replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,6});/gi, (whole, name: string) => {
    if (name[0] !== "#") return NAMED_ENTITIES[name.toLowerCase()] ?? whole;
    const code = name[1] === "x" || name[1] === "X" ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

/** Whitespace collapsed, then cut to `max` characters with an ellipsis. */
export function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`;
}

function httpUrl(value: unknown): string | undefined {
  if (typeof value !== "string" || value.length > MAX_URL_CHARS) return undefined;
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** A time with its zone ("…Z", "…+02:00", "… GMT"): one instant wherever the host runs. */
const ZONED_TIME = /(?:\dZ|[+-]\d\d:?\d\d|\bGMT|\bUTC)$/i;

/**
 * A time with its zone as ISO 8601 (UTC); anything else as the provider wrote it: an ISO date
 * ("2024-04-24") already is one, and a time without a zone, or words ("2 days ago", "April 24,
 * 2024"), would be read in the host's zone and could change day.
 */
function publishedText(value: unknown): string | undefined {
  if (typeof value !== "string" || value.trim() === "") return undefined;
  const text = clip(value, MAX_PUBLISHED_CHARS);
  const time = ZONED_TIME.test(text) ? Date.parse(text) : Number.NaN;
  return Number.isFinite(time) ? new Date(time).toISOString() : text;
}

/**
 * The tool's result for a found one; undefined when it has no http(s) URL (it cannot be cited).
 *
 * @example
 * toWebSearchResult({ title: "<b>Node</b>", url: "https://nodejs.org", snippet: "Run JS" }, { markup: true });
 * // { title: "Node", url: "https://nodejs.org/", snippet: "Run JS" }
 */
function toWebSearchResult(found: FoundResult, options: { markup: boolean }): WebSearchResult | undefined {
  const url = httpUrl(found.url);
  if (url === undefined) return undefined;
  const text = (value: unknown, max: number) => (typeof value === "string" ? clip(options.markup ? stripMarkup(value) : value, max) : "");
  const published = publishedText(found.published);
  return {
    title: text(found.title, MAX_TITLE_CHARS) || url,
    url,
    snippet: text(found.snippet, MAX_SNIPPET_CHARS),
    ...(published === undefined ? {} : { published }),
  };
}

/**
 * The first `count` usable results of an answer, in its order, and how many were left out for want
 * of an http(s) URL. Items past the first `count` usable ones are not converted at all.
 */
export function collectResults(found: FoundResult[], count: number, markup: boolean): { results: WebSearchResult[]; dropped: number } {
  const results: WebSearchResult[] = [];
  let dropped = 0;
  for (const item of found) {
    if (results.length === count) break;
    const result = toWebSearchResult(item, { markup });
    if (result === undefined) dropped++;
    else results.push(result);
  }
  return { results, dropped };
}
