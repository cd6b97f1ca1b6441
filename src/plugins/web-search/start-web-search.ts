/**
 * The running `web_search` tool: the plugin's instance for one set of settings. Loaded when the
 * executor first starts the plugin (only with settings): a project without web search never loads
 * its providers and request code.
 */
import type { WebSearchSettings } from "./config/resolve-web-search-config.js";
import type { WebSearchProviderName } from "./config/web-search-config-schema.js";
import { ToolexecError } from "../../core/errors/toolexec-error.js";
import { createSecretScrubber } from "../../core/log/scrub-secrets.js";
import type { PluginContext, PluginInstance, PluginResult } from "../../core/plugin-contract.js";
import { toolError } from "../../core/tool-result.js";
import { WEB_SEARCH_TOOL_NAME } from "../../core/tool-names.js";
import { braveProvider } from "./brave-provider.js";
import { collectResults } from "./result-text.js";
import type { SearchProvider, TimeRange } from "./search-provider.js";
import { searxngProvider } from "./searxng-provider.js";
import { sendSearchRequest } from "./send-search-request.js";
import { tavilyProvider } from "./tavily-provider.js";
import { webSearchDefinition } from "./web-search-definition.js";

const PROVIDERS: Record<WebSearchProviderName, SearchProvider> = { brave: braveProvider, tavily: tavilyProvider, searxng: searxngProvider };

/**
 * @example
 * const instance = startWebSearch(context); // context.config: the resolved settings
 */
export function startWebSearch(context: PluginContext<WebSearchSettings | undefined>): PluginInstance {
  const settings = context.config;
  const definitions = settings === undefined ? [] : [webSearchDefinition(settings)];
  const secrets = settings?.apiKey === undefined ? [] : [settings.apiKey];
  const scrub = createSecretScrubber(secrets);
  /** Searches under way, each with its own controller, so close() can end them. */
  const running = new Set<AbortController>();
  return {
    listTools: () => definitions,
    secrets: () => secrets,
    async callTool(call, { signal, deadline }): Promise<PluginResult> {
      if (call.name !== WEB_SEARCH_TOOL_NAME || settings === undefined) return toolError("TOOL_NOT_FOUND", `The web-search plugin has no tool "${call.name}"`);
      const args = call.arguments as { query: string; maxResults?: number; timeRange?: TimeRange };
      const provider = PROVIDERS[settings.provider];
      const count = Math.min(args.maxResults ?? settings.maxResults, settings.maxResults);
      const search = { query: args.query, count, ...(args.timeRange === undefined ? {} : { timeRange: args.timeRange }), ...(settings.safeSearch === undefined ? {} : { safeSearch: settings.safeSearch }) };
      const stop = new AbortController();
      running.add(stop);
      let outcome;
      try {
        outcome = await sendSearchRequest(provider, provider.request(search, settings), { signal: AbortSignal.any([signal, stop.signal]), deadline, retries: settings.retries, scrub });
      } finally {
        running.delete(stop);
      }
      if (!outcome.ok) return { ok: false, error: outcome.error };
      const found = provider.readResults(outcome.body);
      if ("problem" in found) {
        return toolError("INVALID_OUTPUT", `${provider.title} answered in an unexpected shape: ${found.problem}; check that webSearch.url points at its search API`, { provider: provider.title });
      }
      const { results, dropped } = collectResults(found.results, count, provider.markup);
      const value = { results };
      return dropped === 0 ? { ok: true, value } : { ok: true, value, warnings: [`${dropped} result${dropped === 1 ? "" : "s"} without an http(s) URL left out`] };
    },
    async close() {
      const reason = new ToolexecError("EXECUTOR_CLOSED", "The executor closed during the search");
      for (const stop of running) stop.abort(reason);
      running.clear();
    },
  };
}
