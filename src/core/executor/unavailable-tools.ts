/**
 * The tools the config names that cannot be served, from every running plugin (a Python entry
 * naming a function its module lacks): each is one broken piece; the rest runs. `strict: true`
 * refuses them instead, and with them the tools whose schema cannot be used for validation (listed
 * and callable unchecked otherwise).
 */
import { ConfigError, type ConfigIssue } from "../errors/config-error.js";
import type { UnavailableTool } from "../plugin-contract.js";
import type { RunningPlugin } from "./plugin-host.js";
import type { RegisteredTool } from "./tool-registry.js";

/** An unavailable tool with the plugin that should serve it. */
export type PluginUnavailableTool = UnavailableTool & { plugin: string };

/** A listed tool whose schema checks nothing, and why. */
export interface UncheckedTool {
  plugin: string;
  reason: string;
}

/**
 * Every unavailable tool of `running`, each plugin's own in start order.
 *
 * @example
 * const broken = collectUnavailableTools(running); // [{ name: "wrod_count", plugin: "python", error, source }]
 */
export function collectUnavailableTools(running: readonly RunningPlugin[]): PluginUnavailableTool[] {
  const collected: PluginUnavailableTool[] = [];
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

/** The tools of `registry` whose inputSchema or outputSchema cannot be used for validation. */
export function uncheckedTools(registry: ReadonlyMap<string, RegisteredTool>): UncheckedTool[] {
  const unchecked: UncheckedTool[] = [];
  for (const tool of registry.values()) if (tool.uncheckedReason !== undefined) unchecked.push({ plugin: tool.owner.name, reason: tool.uncheckedReason });
  return unchecked;
}

/**
 * `strict: true`: throws `CONFIG_INVALID` naming each unavailable tool, located in its file when the
 * config says where it is written (the message then names that place once, in the issue's own fields),
 * and each tool whose schema cannot be used.
 */
export function refuseUnavailableTools(unavailable: readonly PluginUnavailableTool[], unchecked: readonly UncheckedTool[] = []): void {
  if (unavailable.length === 0 && unchecked.length === 0) return;
  const issues: ConfigIssue[] = unavailable.map(({ plugin, error, source }) => {
    if (!source) return { file: `plugin "${plugin}"`, path: "", message: `${error.message} (strict: true)` };
    return { file: source.file, path: source.path, message: `${error.message.replace(`${source.file} ${source.path}: `, "")} (strict: true)` };
  });
  for (const { plugin, reason } of unchecked) issues.push({ file: `plugin "${plugin}"`, path: "", message: `${reason} (strict: true)` });
  throw new ConfigError("CONFIG_INVALID", issues);
}
