/**
 * Hands each plugin that declares `config` its resolved section, and leaves out a plugin whose
 * section says it does not run with that value (`enabled`), as code mode when it is off.
 */
import type { ProjectConfig } from "../config/load-project-config.js";
import type { PluginSpec } from "./plugin-host.js";

export function attachSections(specs: PluginSpec[], config: ProjectConfig): PluginSpec[] {
  const attached: PluginSpec[] = [];
  for (const spec of specs) {
    const section = spec.plugin.config;
    if (section === undefined) {
      attached.push(spec);
      continue;
    }
    const value = config.sections[spec.plugin.name];
    if (section.enabled && !section.enabled(value as never)) continue;
    attached.push({ ...spec, config: { value } });
  }
  return attached;
}
