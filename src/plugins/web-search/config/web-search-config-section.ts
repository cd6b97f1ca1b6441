/**
 * The section the web-search plugin declares: tools.json's `webSearch`, resolved with the host's
 * environment, unless the host's `webSearch` option replaces it (settings, or `false` for off).
 * The plugin runs only when there are settings.
 */
import { withLazySchema } from "../../../core/config/lazy-section-schema.js";
import { ToolexecError } from "../../../core/errors/toolexec-error.js";
import type { ToolsKeySection } from "../../../core/plugin-config.js";
import { resolveWebSearchConfig, type WebSearchSettings } from "./resolve-web-search-config.js";
import type { WebSearchConfig } from "./web-search-config-schema.js";
import { isWellFormedWebSearch } from "./well-formed-web-search.js";

/**
 * The `webSearch` option resolved: settings, `false` (off), or undefined (tools.json decides).
 * Throws `INVALID_OPTIONS` naming each problem.
 */
export function resolveWebSearchOption(option: WebSearchConfig | false | undefined): WebSearchSettings | false | undefined {
  if (option === undefined || option === false) return option;
  const resolved = resolveWebSearchConfig(option);
  if (resolved.ok) return resolved.settings;
  const problems = resolved.problems.map(({ key, message }) => `webSearch${key === undefined ? "" : `.${key}`}: ${message}`);
  throw new ToolexecError("INVALID_OPTIONS", `Invalid createExecutor options: ${problems.join("; ")}`, { details: { problems } });
}

/** `fromOption`: the option as `resolveWebSearchOption` resolved it. */
export function webSearchConfigSection(fromOption: WebSearchSettings | false | undefined): ToolsKeySection<WebSearchConfig, WebSearchSettings | undefined> {
  const lazy = { isWellFormed: isWellFormedWebSearch, load: async () => (await import("./web-search-config-schema.js")).webSearchConfigSchema };
  return withLazySchema<ToolsKeySection<WebSearchConfig, WebSearchSettings | undefined>>({
    key: "webSearch",
    resolve(written, context) {
      // The file's object is checked even when the option replaces it: it is still the project's.
      let fromFile: WebSearchSettings | undefined;
      if (written !== undefined) {
        const resolved = resolveWebSearchConfig(written, context.environment);
        if (resolved.ok) fromFile = resolved.settings;
        else for (const { key, message } of resolved.problems) context.report(key === undefined ? [] : [key], message);
      }
      return fromOption === undefined ? fromFile : fromOption || undefined;
    },
    enabled: (settings) => settings !== undefined,
  }, lazy);
}
