/**
 * The tools the config names that cannot be served, from every running plugin: those the registry
 * skipped (an invalid schema) and those a plugin reports itself (a Python entry naming a function
 * its module lacks). Each is one broken piece; the rest runs. `strict: true` refuses them instead.
 */
import { ConfigError, type ConfigIssue } from "../errors/config-error.js";
import type { UnavailableTool } from "../plugin-contract.js";
import type { RunningPlugin } from "./plugin-host.js";
import type { SkippedTool } from "./tool-registry.js";

/** An unavailable tool with the plugin that should serve it. */
export type PluginUnavailableTool = UnavailableTool & { plugin: string };

/**
 * Every unavailable tool of `running`, the registry's skipped ones first, then each plugin's own in start order.
 *
 * @example
 * const broken = collectUnavailableTools(running, skipped); // [{ name: "wrod_count", plugin: "python", error, source }]
 */
export function collectUnavailableTools(running: readonly RunningPlugin[], skipped: ReadonlyMap<string, SkippedTool>): PluginUnavailableTool[] {
  const collected: PluginUnavailableTool[] = [...skipped].map(([name, { plugin, error }]) => ({ name, plugin, error }));
  for (const plugin of running) {
    let own: UnavailableTool[] = [];
    try {
      own = plugin.instance.unavailableTools?.() ?? [];
    } catch {
      // A capability that throws reports nothing: the tools it would name stay out of the list, as before.
      own = [];
    }
    for (const tool of own) collected.push({ ...tool, plugin: plugin.name });
  }
  return collected;
}

/**
 * `strict: true`: throws `CONFIG_INVALID` naming each unavailable tool, located in its file when the
 * config says where it is written (the message then names that place once, in the issue's own fields).
 */
export function refuseUnavailableTools(unavailable: readonly PluginUnavailableTool[]): void {
  if (unavailable.length === 0) return;
  const issues: ConfigIssue[] = unavailable.map(({ plugin, error, source }) => {
    if (!source) return { file: `plugin "${plugin}"`, path: "", message: `${error.message} (strict: true)` };
    return { file: source.file, path: source.path, message: `${error.message.replace(`${source.file} ${source.path}: `, "")} (strict: true)` };
  });
  throw new ConfigError("CONFIG_INVALID", issues);
}
