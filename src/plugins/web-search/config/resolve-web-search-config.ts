/**
 * Resolves a `webSearch` object (tools.json's, or the executor option) into the settings the web
 * search plugin runs with: `${VAR}` taken from the environment (tools.json only), defaults applied,
 * the keys each provider needs checked, and the base URL validated — an API key never travels over
 * plain http to another machine.
 */
import { isIP } from "node:net";
import { interpolateEnvironment, unsetVariablesMessage } from "../../../core/config/interpolate-environment.js";
import {
  DEFAULT_WEB_SEARCH_MAX_RESULTS,
  DEFAULT_WEB_SEARCH_RETRIES,
  DEFAULT_WEB_SEARCH_TIMEOUT_MS,
  type SafeSearchLevel,
  type WebSearchProviderName,
} from "./web-search-constants.js";
import type { WebSearchConfig } from "./web-search-config-schema.js";

/** What the web search plugin runs with: one provider, its key and base URL, and the limits. */
export interface WebSearchSettings {
  provider: WebSearchProviderName;
  /** Absent for searxng. */
  apiKey?: string;
  /** Base URL without a trailing slash; the provider's API path is appended. */
  url: string;
  maxResults: number;
  timeoutMs: number;
  retries: number;
  safeSearch?: SafeSearchLevel;
}

/** A problem with one key of the `webSearch` object. */
export interface WebSearchProblem {
  key: keyof WebSearchConfig | undefined;
  message: string;
}

export type ResolveWebSearchResult = { ok: true; settings: WebSearchSettings } | { ok: false; problems: WebSearchProblem[] };

/** The public endpoints, used when `url` is not set. */
export const DEFAULT_WEB_SEARCH_URLS: Readonly<Record<Exclude<WebSearchProviderName, "searxng">, string>> = {
  brave: "https://api.search.brave.com",
  tavily: "https://api.tavily.com",
};

const PROVIDER_TITLES: Record<WebSearchProviderName, string> = { brave: "Brave Search", tavily: "Tavily", searxng: "SearXNG" };
const KEY_VARIABLES: Record<Exclude<WebSearchProviderName, "searxng">, string> = { brave: "BRAVE_API_KEY", tavily: "TAVILY_API_KEY" };

function isLoopbackHostname(hostname: string): boolean {
  return hostname === "localhost" || hostname === "[::1]" || (isIP(hostname) === 4 && hostname.startsWith("127."));
}

/** The base URL's problem, if any: http(s), no credentials, query or fragment; https when a key goes off this machine. */
function urlProblem(text: string, sendsKey: boolean): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return `Expected an absolute http(s) URL, got ${JSON.stringify(text)}`;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return `Expected an http(s) URL, got the ${url.protocol} scheme`;
  if (url.username !== "" || url.password !== "") return "Expected a URL without credentials in it";
  if (url.search !== "" || url.hash !== "") return "Expected a base URL without a query or fragment (the API path and parameters are added to it)";
  if (sendsKey && url.protocol === "http:" && !isLoopbackHostname(url.hostname)) {
    return `Refusing to send the API key in clear text to ${url.host}: use https, or http only to this machine (localhost, 127.0.0.1, [::1])`;
  }
  return undefined;
}

function withoutTrailingSlashes(text: string): string {
  let end = text.length;
  while (end > 0 && text[end - 1] === "/") end--;
  return text.slice(0, end);
}

/** `text` with `${VAR}` taken from `environment`, or the problem naming the unset variables. */
function interpolate(text: string, environment: Readonly<Record<string, string | undefined>> | undefined): { value: string } | { problem: string } {
  if (environment === undefined) return { value: text };
  const result = interpolateEnvironment(text, environment);
  if (result.ok) return { value: result.value };
  return { problem: unsetVariablesMessage(result.missing) };
}

/**
 * Resolve a schema-valid `webSearch` object. With `environment`, `${VAR}` in `apiKey` and `url` is
 * taken from it (tools.json); without, the values are used as given (the executor option).
 *
 * @example
 * resolveWebSearchConfig({ provider: "brave", apiKey: "${BRAVE_API_KEY}" }, process.env);
 * // { ok: true, settings: { provider: "brave", apiKey: "…", url: "https://api.search.brave.com", maxResults: 10, … } }
 */
export function resolveWebSearchConfig(config: WebSearchConfig, environment?: Readonly<Record<string, string | undefined>>): ResolveWebSearchResult {
  const problems: WebSearchProblem[] = [];
  const { provider } = config;
  const title = PROVIDER_TITLES[provider];
  let apiKey: string | undefined;
  if (provider === "searxng") {
    if (config.apiKey !== undefined) problems.push({ key: "apiKey", message: 'SearXNG takes no API key; remove "apiKey"' });
    if (config.url === undefined) problems.push({ key: undefined, message: 'Missing required key "url" for provider "searxng": the base URL of your SearXNG instance, e.g. "http://127.0.0.1:8888"' });
  } else if (config.apiKey === undefined) {
    problems.push({ key: undefined, message: `Missing required key "apiKey" for provider "${provider}": ${title} needs an API key, e.g. "apiKey": "\${${KEY_VARIABLES[provider]}}"` });
  } else {
    const key = interpolate(config.apiKey, environment);
    if ("problem" in key) problems.push({ key: "apiKey", message: key.problem });
    else if (key.value.trim() === "") problems.push({ key: "apiKey", message: `The API key is empty; set it to your ${title} key` });
    else apiKey = key.value.trim();
  }
  let url = provider === "searxng" ? undefined : DEFAULT_WEB_SEARCH_URLS[provider];
  if (config.url !== undefined) {
    const given = interpolate(config.url, environment);
    const problem = "problem" in given ? given.problem : urlProblem(given.value, provider !== "searxng");
    if (problem !== undefined) problems.push({ key: "url", message: problem });
    else if ("value" in given) url = withoutTrailingSlashes(given.value);
  }
  if (problems.length > 0 || url === undefined) return { ok: false, problems };
  return {
    ok: true,
    settings: {
      provider,
      ...(apiKey === undefined ? {} : { apiKey }),
      url,
      maxResults: config.maxResults ?? DEFAULT_WEB_SEARCH_MAX_RESULTS,
      timeoutMs: config.timeoutMs ?? DEFAULT_WEB_SEARCH_TIMEOUT_MS,
      retries: config.retries ?? DEFAULT_WEB_SEARCH_RETRIES,
      ...(config.safeSearch === undefined ? {} : { safeSearch: config.safeSearch }),
    },
  };
}
