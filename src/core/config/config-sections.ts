/**
 * The sections of configuration that plugins own (their `config` capability): checked once when the
 * executor is created (one owner per key and per file), then resolved at every load with located
 * problems, the way the core's own keys are.
 */
import type { z } from "zod";
import type { ConfigIssue } from "../errors/config-error.js";
import { ToolexecError } from "../errors/toolexec-error.js";
import type { ConfigPath, ConfigSectionContext, FileSection, PluginConfigSection, ToolDefaults, ToolsKeySection } from "../plugin-config.js";
import { formatJsonPath, type JsonDocument } from "../json/parse-json-document.js";
import { isLazySection } from "./lazy-section-schema.js";
import { CORE_TOOLS_KEYS } from "./tools-config-constants.js";
import { loadedZodWording } from "./zod-wording.js";

/** A plugin's section with the name of the plugin that owns it. */
export interface OwnedSection {
  owner: string;
  section: PluginConfigSection;
}

export { CORE_TOOLS_KEYS };

export const isKeySection = (section: PluginConfigSection): section is ToolsKeySection => "key" in section;
export const isFileSection = (section: PluginConfigSection): section is FileSection => "file" in section;

/**
 * The sections of these plugins, in order; throws `INVALID_OPTIONS` for a key or a file claimed
 * twice, a key of the core's, or a section that names neither a key nor a file.
 */
export function collectSections(plugins: ReadonlyArray<{ name: string; config?: PluginConfigSection }>, toolsConfig: string | false): OwnedSection[] {
  const owners = new Map<string, string>();
  const sections: OwnedSection[] = [];
  const refuse = (message: string) => {
    throw new ToolexecError("INVALID_OPTIONS", `Invalid createExecutor options: plugins: ${message}`);
  };
  for (const plugin of plugins) {
    const section = plugin.config;
    if (section === undefined) continue;
    if (isKeySection(section) === isFileSection(section)) refuse(`plugin "${plugin.name}" config must name either a tools.json "key" or a "file"`);
    if (!isLazySection(section) && typeof section.schema?.safeParse !== "function") refuse(`plugin "${plugin.name}" config needs a zod schema`);
    const claim = isKeySection(section) ? `key "${section.key}" of tools.json` : section.file === false ? undefined : `file "${section.file}"`;
    if (isKeySection(section) && (CORE_TOOLS_KEYS as readonly string[]).includes(section.key)) refuse(`plugin "${plugin.name}" claims tools.json's own key "${section.key}"`);
    if (isFileSection(section) && section.file !== false && section.file === toolsConfig) refuse(`plugin "${plugin.name}" claims tools.json as its file; claim a key of it instead`);
    if (claim !== undefined) {
      const previous = owners.get(claim);
      if (previous !== undefined) refuse(`plugins "${previous}" and "${plugin.name}" both claim the ${claim}`);
      owners.set(claim, plugin.name);
    }
    sections.push({ owner: plugin.name, section });
  }
  return sections;
}

/** Where a section sits in its file, and where its problems go. */
export interface SectionPlace {
  root: string;
  file: string;
  document: JsonDocument | undefined;
  /** The section's path inside the document: `[key]` for a tools.json key, `[]` for a whole file. */
  at: ConfigPath;
  issues: ConfigIssue[];
  warnings: ConfigIssue[];
  toolDefaults?: ToolDefaults;
}

/** The context a resolver is lent, reporting into `place`. */
function sectionContext(place: SectionPlace): ConfigSectionContext & { failed(): boolean } {
  let failed = false;
  const locate = (path: ConfigPath, atKey: boolean) => {
    const full = [...place.at, ...path];
    return { file: place.file, path: formatJsonPath(full), ...(place.document?.locate(full, { key: atKey }) ?? {}) };
  };
  const report: ConfigSectionContext["report"] = (path, message, options = {}) => {
    if (!options.warning) failed = true;
    (options.warning ? place.warnings : place.issues).push({ ...locate(path, options.atKey === true), message });
  };
  return {
    root: place.root,
    file: place.file,
    environment: process.env,
    ...(place.toolDefaults === undefined ? {} : { toolDefaults: place.toolDefaults }),
    report,
    check<Value>(schema: z.ZodType<Value>, value: unknown, path: ConfigPath): Value | undefined {
      const parsed = schema.safeParse(value);
      if (parsed.success) return value as Value;
      for (const issue of loadedZodWording().describeZodIssues(parsed.error.issues, schema, value)) report([...path, ...issue.path], issue.message, { atKey: issue.atKey });
      return undefined;
    },
    failed: () => failed,
  };
}

/**
 * Resolve one section's written value (already checked by its schema, or undefined when absent).
 * `{ ok: false }` when the resolver reported an error or threw.
 */
export function resolveSection(section: PluginConfigSection, written: unknown, place: SectionPlace): { ok: true; value: unknown } | { ok: false } {
  const context = sectionContext(place);
  let value: unknown;
  try {
    value = section.resolve ? section.resolve(written, context) : written;
  } catch (error) {
    context.report([], `The plugin could not read this section: ${(error as Error)?.message ?? String(error)}`);
  }
  return context.failed() ? { ok: false } : { ok: true, value };
}
