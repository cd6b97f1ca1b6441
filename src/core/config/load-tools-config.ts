/** Loads tools.json into resolved script-tool entries, with every semantic check the schema cannot make. */
import path from "node:path";
import type { ConfigIssue } from "../errors/config-error.js";
import type { ToolDefaults } from "../plugin-config.js";
import type { JsonSchema, ToolAnnotations } from "../plugin-contract.js";
import type { PythonEnvironmentSpec } from "../python-environments/python-requirements.js";
import { checkToolsFolder, resolveProjectPaths } from "./check-tool-paths.js";
import { isKeySection, resolveSection, type OwnedSection } from "./config-sections.js";
import { valueAt } from "../json/describe-value.js";
import { formatJsonPath, type JsonDocument, type JsonPath } from "../json/parse-json-document.js";
import { isWellFormedToolsConfig } from "./is-well-formed-tools-config.js";
import { readJsonConfig } from "./read-json-config.js";
import { isLazySection, loadSectionSchemas, sectionAccepts } from "./lazy-section-schema.js";
import { resolveToolEntry, type EntryContext, type EntryShape } from "./resolve-tool-entry.js";
import { resolveToolEnvironment } from "./resolve-tool-environment.js";
import { RESERVED_TOOL_NAMES } from "../tool-names.js";
import type { ToolsConfigFile } from "./tools-config-schema.js";
import { resolveProjectPython } from "../python-environments/resolve-python-environment.js";

export { resolveInterpreter } from "./resolve-tool-entry.js";

/** One tools.json tool with defaults applied and paths made absolute: the script plugin's entry. */
export interface ScriptToolEntry {
  name: string;
  title?: string;
  description: string;
  runtime: "python" | "shell" | "node";
  /** Absolute path of the script. */
  script: string;
  /** The script as written in tools.json, relative to tools/. */
  scriptPath: string;
  args: string[];
  /** Python command or absolute interpreter path (python runtime only). */
  interpreter?: string;
  /** The environment the script runs in (python runtime only); absent: `interpreter` as it is. */
  pythonEnvironment?: PythonEnvironmentSpec;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  annotations?: ToolAnnotations;
  /** Budget per call; absent when neither the tool nor `defaults` sets one (the executor's default applies). */
  timeoutMs?: number;
  /** The tool's own result budget (`results.maxChars`), when its entry sets one. */
  results?: { maxChars: number };
  parallel: boolean;
  env: Record<string, string>;
  /** Absolute working directory. */
  cwd: string;
  maxOutputBytes: number;
}

/** One tools.json tool naming a Python function (`"function": "file.py:name"`): the python plugin's entry. */
export interface PythonFunctionEntry {
  name: string;
  title?: string;
  /** Absent: the function's docstring summary is used. */
  description?: string;
  /** Absolute path of the module. */
  module: string;
  /** The module as written in tools.json, relative to tools/. */
  modulePath: string;
  /** The function's name inside the module. */
  function: string;
  /** Python command or absolute interpreter path. */
  interpreter: string;
  /** Absent: derived from the function's type hints. */
  inputSchema?: JsonSchema;
  outputSchema?: JsonSchema;
  annotations?: ToolAnnotations;
  timeoutMs?: number;
  results?: { maxChars: number };
  parallel: boolean;
  env: Record<string, string>;
  /** Absolute working directory of the worker. */
  cwd: string;
  /** The worker's address-space cap in MiB; absent: none. */
  memoryLimitMb?: number;
  /** The environment its worker runs in, built on first use from `interpreter`; absent: `interpreter` as it is. */
  pythonEnvironment?: PythonEnvironmentSpec;
  /** Where the entry is written, e.g. `{ file: "tools.json", path: "tools[3]" }`: messages about it name the place to fix. */
  source?: { file: string; path: string };
}

export interface LoadedToolsConfig {
  tools: ScriptToolEntry[];
  /** Entries naming a Python function instead of a script. */
  functions: PythonFunctionEntry[];
  /** Problems that do not stop loading, such as a script that does not exist yet. */
  warnings: ConfigIssue[];
  /** The resolved value of each plugin's tools.json key, by the plugin's name. */
  sections: Map<string, unknown>;
  /** `defaults.results`, as written. */
  results?: { maxChars?: number };
}

export type LoadToolsResult =
  | { status: "ok"; config: LoadedToolsConfig }
  | { status: "missing" | "invalid"; issues: ConfigIssue[] };

/**
 * Read and resolve `tools.json` (or `fileName`) under `root`, with the keys `sections` own. Never
 * throws for file content. `content`: check these bytes as the file's content instead of reading it.
 */
export async function loadToolsConfig(root: string, fileName: string, content?: Uint8Array, sections: readonly OwnedSection[] = []): Promise<LoadToolsResult> {
  const absolutePath = path.resolve(root, fileName);
  const file = path.relative(root, absolutePath) || fileName;
  // zod and the schemas load only for a file the fast rules do not vouch for (its problems are zod's to word).
  const schemas = async () => {
    await loadSectionSchemas(sections);
    return import("./tools-config-schema.js");
  };
  const schema = async () => (await schemas()).toolsConfigSchemaWith(sections);
  const read = await readJsonConfig(absolutePath, file, schema, 'run `npx toolexec init` for a starter project, create it with { "tools": [] } (see docs/config.md), or pass `toolsConfig: false` to run without local tools', content, (value) => isWellFormedToolsConfig(value, sections));
  if (read.status === "missing") return read;
  if (read.status === "ok") {
    // A host plugin's resolver may `check` with its own zod schema: its sections need zod's wording.
    if (sections.some(({ section }) => !isLazySection(section))) await loadSectionSchemas(sections);
    const resolved = resolveTools(root, file, { defaults: read.data.defaults ?? {}, python: read.data.python }, read.data.tools, read.document, undefined);
    const owned = resolveKeySections(sections, { root, file, document: read.document, toolDefaults: resolved.toolDefaults });
    if (resolved.result.status !== "ok" || owned.issues.length > 0) return { status: "invalid", issues: [...(resolved.result.status === "ok" ? [] : resolved.result.issues), ...owned.issues] };
    const { config } = resolved.result;
    return { status: "ok", config: { ...config, warnings: [...config.warnings, ...owned.warnings], sections: owned.values } };
  }
  if (read.document === undefined) return read;
  // The checks the schema cannot make run even when the schema failed elsewhere in the file, on
  // every tool that is valid on its own: one round of fixes then covers every problem.
  const { projectPythonSchema, toolEntrySchema } = await schemas();
  const rawTools = valueAt(read.document.value, ["tools"]);
  const rawPython = valueAt(read.document.value, ["python"]);
  const python = projectPythonSchema.safeParse(rawPython).success ? (rawPython as ToolsConfigFile["python"]) : undefined;
  const checked = resolveTools(root, file, { defaults: {}, python }, Array.isArray(rawTools) ? rawTools : [], read.document, toolEntrySchema);
  const owned = resolveKeySections(sections, { root, file, document: read.document, toolDefaults: checked.toolDefaults });
  return {
    status: "invalid",
    issues: [...read.issues, ...(checked.result.status === "invalid" ? checked.result.issues : []), ...owned.issues],
  };
}

/**
 * Each plugin's key of tools.json resolved by its plugin, whenever its value passes its own schema
 * (the rest of the file may not): its problems are then reported with the file's others.
 */
function resolveKeySections(sections: readonly OwnedSection[], where: { root: string; file: string; document: JsonDocument; toolDefaults: ToolDefaults }) {
  const issues: ConfigIssue[] = [];
  const warnings: ConfigIssue[] = [];
  const values = new Map<string, unknown>();
  for (const { owner, section } of sections) {
    if (!isKeySection(section)) continue;
    const written = valueAt(where.document.value, [section.key]);
    if (written !== undefined && !sectionAccepts(section, written)) continue;
    const resolved = resolveSection(section, written, { ...where, at: [section.key], issues, warnings });
    if (resolved.ok) values.set(owner, resolved.value);
  }
  return { issues, warnings, values };
}

/** Names must be unique and unreserved; checked on every entry with a string name, valid or not. */
function checkNames(rawTools: unknown[], report: (at: JsonPath, message: string) => void): void {
  const firstIndexByName = new Map<string, number>();
  rawTools.forEach((tool, index) => {
    const name = valueAt(tool, ["name"]);
    if (typeof name !== "string") return;
    const previous = firstIndexByName.get(name);
    if (previous !== undefined) report(["tools", index, "name"], `Duplicate tool name "${name}" (first defined at tools[${previous}]); tool names must be unique`);
    else firstIndexByName.set(name, index);
    if ((RESERVED_TOOL_NAMES as readonly string[]).includes(name)) {
      report(["tools", index, "name"], `Tool name "${name}" is reserved for a built-in tool; choose another name`);
    }
  });
}

function resolveTools(
  root: string,
  file: string,
  written: { defaults: NonNullable<ToolsConfigFile["defaults"]>; python: ToolsConfigFile["python"] },
  rawTools: unknown[],
  document: JsonDocument,
  /** The entry schema when the file failed its schema; undefined: every entry has its shape (no need to check each again). */
  entryShape: EntryShape | undefined,
): { result: LoadToolsResult; toolDefaults: ToolDefaults } {
  const issues: ConfigIssue[] = [];
  const warnings: ConfigIssue[] = [];
  const report = (at: JsonPath, message: string, warning = false) =>
    (warning ? warnings : issues).push({ file, path: formatJsonPath(at), ...document.locate(at), message });
  const paths = resolveProjectPaths(root, { listToolFiles: true });
  const toolsFolderProblem = checkToolsFolder(paths);
  if (toolsFolderProblem) report(["tools"], toolsFolderProblem.message);
  checkNames(rawTools, report);
  const { defaults } = written;
  const defaultEnv = resolveToolEnvironment(defaults.env ?? {}, ["defaults", "env"], report);
  const pythonProject = resolveProjectPython(written.python, paths.toolsDir, report);
  const context: EntryContext = { root, file, paths, defaults, defaultEnv, pythonProject, report };
  const tools: ScriptToolEntry[] = [];
  const functions: PythonFunctionEntry[] = [];
  for (const [index, rawTool] of rawTools.entries()) {
    const resolved = resolveToolEntry(rawTool, index, entryShape, context);
    if (resolved?.kind === "function") functions.push({ ...resolved.entry, source: { file, path: formatJsonPath(["tools", index]) } });
    else if (resolved?.kind === "script") tools.push(resolved.entry);
  }
  const { env: _writtenEnv, results: _results, ...writtenDefaults } = defaults;
  const toolDefaults: ToolDefaults = { ...writtenDefaults, env: defaultEnv, pythonProject };
  if (issues.length > 0) return { result: { status: "invalid", issues }, toolDefaults };
  const results = defaults.results === undefined ? {} : { results: defaults.results };
  return { result: { status: "ok", config: { tools, functions, warnings, sections: new Map(), ...results } }, toolDefaults };
}
