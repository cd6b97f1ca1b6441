/**
 * `web_search`: searches the web through the provider configured in tools.json's `webSearch` (or
 * `createExecutor({ webSearch })`) — Brave Search, Tavily or a SearXNG instance. The call's budget
 * and cancellation are the pipeline's (its signal and deadline); retries happen inside that budget.
 */
import type { WebSearchSettings } from "./config/resolve-web-search-config.js";
import { webSearchConfigSection } from "./config/web-search-config-section.js";
import { PLUGIN_CONTRACT_VERSION, type ExecutorPlugin } from "../../core/plugin-contract.js";

/**
 * The plugin. It owns tools.json's `webSearch` (its `config`); `settings`, the host's `webSearch`
 * option resolved (`resolveWebSearchOption`), replaces the file's, and `false` turns it off. The
 * executor runs it only when there are settings.
 *
 * @example
 * const executor = await createExecutor({ webSearch: { provider: "brave", apiKey: process.env.BRAVE_API_KEY } });
 * await executor.callTool("web_search", { query: "node 22 release date" });
 */
export function webSearchPlugin(settingsOption?: WebSearchSettings | false): ExecutorPlugin<never, unknown, WebSearchSettings | undefined> {
  return {
    name: "web-search",
    contractVersion: PLUGIN_CONTRACT_VERSION,
    config: webSearchConfigSection(settingsOption),
    async start(_entries, context) {
      // The providers and request code load with the first start (the executor starts the plugin only with settings).
      const { startWebSearch } = await import("./start-web-search.js");
      return startWebSearch(context);
    },
  };
}
