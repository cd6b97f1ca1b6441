/**
 * Loads a project's configuration: tools.json's tools (the core's own rules) and every section a
 * plugin owns (a key of tools.json, or a whole file such as mcp.json), reporting every problem of
 * every file at once.
 */
import path from "node:path";
import { ConfigError, type ConfigIssue } from "../errors/config-error.js";
import { isFileSection, isKeySection, resolveSection, type OwnedSection } from "./config-sections.js";
import { isLazySection, loadSectionSchemas, sectionAccepts } from "./lazy-section-schema.js";
import { loadToolsConfig, type PythonFunctionEntry, type ScriptToolEntry } from "./load-tools-config.js";
import { readJsonConfig } from "./read-json-config.js";

export interface ConfigFilesOptions {
  /** The project folder (absolute). */
  root: string;
  /** tools.json's path relative to root, or `false` to run without local tools. */
  toolsConfig: string | false;
  /** The sections the plugins own, from `collectSections`. */
  sections: readonly OwnedSection[];
}

/** A project's valid configuration, resolved. */
export interface ProjectConfig {
  root: string;
  /** Absolute paths of the config files in use (watched for hot reload). */
  files: string[];
  /** tools.json's tools by kind: scripts (the `script` plugin's) and Python functions (the `python` plugin's). */
  entries: { script: ScriptToolEntry[]; python: PythonFunctionEntry[] };
  /** Each plugin's section, resolved, by the plugin's name (`mcp`: its servers; `code`: code mode's settings; ...). */
  sections: Record<string, unknown>;
  warnings: ConfigIssue[];
  /** tools.json's `defaults.results`: the project's result budget, when it sets one. */
  results?: { maxChars?: number };
}

/** A file's issues in the order an editor shows them; issues without a place (a missing file) first. */
function inFileOrder(issues: ConfigIssue[]): ConfigIssue[] {
  const place = (issue: ConfigIssue) => [issue.line ?? 0, issue.column ?? 0] as const;
  return [...issues].sort((left, right) => {
    const [leftLine, leftColumn] = place(left);
    const [rightLine, rightColumn] = place(right);
    return leftLine - rightLine || leftColumn - rightColumn;
  });
}

type SectionLoad = { status: "ok"; owner: string; value: unknown; warnings: ConfigIssue[] } | { status: "missing" | "invalid"; issues: ConfigIssue[] };

/** One plugin's section that tools.json does not hold: its own file, or a tools.json key when there is no tools.json. */
async function loadSection(root: string, owned: OwnedSection): Promise<SectionLoad> {
  const { owner, section } = owned;
  // A host plugin's resolver may `check` with its own zod schema: its section needs zod's wording.
  if (!isLazySection(section)) await loadSectionSchemas([owned]);
  const issues: ConfigIssue[] = [];
  const warnings: ConfigIssue[] = [];
  const fileName = isFileSection(section) ? section.file : false;
  if (fileName === false) {
    const resolved = resolveSection(section, undefined, { root, file: "", document: undefined, at: [], issues, warnings });
    return resolved.ok ? { status: "ok", owner, value: resolved.value, warnings } : { status: "invalid", issues };
  }
  const absolutePath = path.resolve(root, fileName);
  const file = path.relative(root, absolutePath) || fileName;
  const hint = (isFileSection(section) && section.missingHint) || `create it, or configure the "${owner}" plugin to run without it`;
  const read = isLazySection(section)
    ? await readJsonConfig(absolutePath, file, async () => (await loadSectionSchemas([owned]), section.schema), hint, undefined, (value) => sectionAccepts(section, value))
    : await readJsonConfig(absolutePath, file, section.schema, hint);
  if (read.status !== "ok") return read;
  const resolved = resolveSection(section, read.data, { root, file, document: read.document, at: [], issues, warnings });
  return resolved.ok ? { status: "ok", owner, value: resolved.value, warnings } : { status: "invalid", issues };
}

/**
 * Load and validate the project's config files. Throws `ConfigError` (`CONFIG_MISSING` or
 * `CONFIG_INVALID`) listing every problem found in any file.
 */
export async function loadConfigFiles(options: ConfigFilesOptions): Promise<ProjectConfig> {
  const { root, toolsConfig } = options;
  const outside = options.sections.filter(({ section }) => !isKeySection(section) || toolsConfig === false);
  const [tools, ...sections] = await Promise.all([
    toolsConfig === false ? undefined : loadToolsConfig(root, toolsConfig, undefined, options.sections),
    ...outside.map((owned) => loadSection(root, owned)),
  ]);
  const issues: ConfigIssue[] = [];
  let missing = false;
  for (const result of [tools, ...sections]) {
    if (result === undefined || result.status === "ok") continue;
    missing ||= result.status === "missing";
    issues.push(...inFileOrder(result.issues));
  }
  if (issues.length > 0) throw new ConfigError(missing ? "CONFIG_MISSING" : "CONFIG_INVALID", issues);
  const loaded = tools?.status === "ok" ? tools.config : undefined;
  const values: Record<string, unknown> = Object.fromEntries(loaded?.sections ?? []);
  const warnings = [...(loaded?.warnings ?? [])];
  for (const section of sections) {
    if (section.status !== "ok") continue;
    values[section.owner] = section.value;
    warnings.push(...section.warnings);
  }
  const fileNames = [toolsConfig, ...options.sections.map(({ section }) => (isFileSection(section) ? section.file : false))];
  return {
    root,
    files: fileNames.filter((name): name is string => name !== false).map((name) => path.resolve(root, name)),
    entries: { script: loaded?.tools ?? [], python: loaded?.functions ?? [] },
    sections: values,
    warnings,
    ...(loaded?.results === undefined ? {} : { results: loaded.results }),
  };
}
