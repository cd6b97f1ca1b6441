/** Loads tools.json into resolved script-tool entries, with every semantic check the schema cannot make. */
import path from "node:path";
import type { ConfigIssue } from "../errors/config-error.js";
import type { ToolDefaults } from "../plugin-config.js";
import type { JsonSchema, ToolAnnotations } from "../plugin-contract.js";
import { checkCwd, checkScriptPath, checkToolsFolder, resolveProjectPaths } from "./check-tool-paths.js";
import { checkToolSchema } from "../schema/check-tool-schema.js";
import { isKeySection, resolveSection, type OwnedSection } from "./config-sections.js";
import { valueAt } from "../json/describe-value.js";
import { formatJsonPath, type JsonDocument, type JsonPath } from "../json/parse-json-document.js";
import { isWellFormedToolsConfig } from "./is-well-formed-tools-config.js";
import { readJsonConfig } from "./read-json-config.js";
import { resolveToolEnvironment } from "./resolve-tool-environment.js";
import { RESERVED_TOOL_NAMES } from "../tool-names.js";
import {
  DEFAULT_MAX_OUTPUT_BYTES,
  toolEntrySchema,
  toolsConfigSchemaWith,
  type ToolEntryFile,
  type ToolsConfigFile,
} from "./tools-config-schema.js";

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
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  annotations?: ToolAnnotations;
  /** Budget per call; absent when neither the tool nor `defaults` sets one (the executor's default applies). */
  timeoutMs?: number;
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
  parallel: boolean;
  env: Record<string, string>;
  /** Absolute working directory of the worker. */
  cwd: string;
  /** The worker's address-space cap in MiB; absent: none. */
  memoryLimitMb?: number;
}

export interface LoadedToolsConfig {
  tools: ScriptToolEntry[];
  /** Entries naming a Python function instead of a script. */
  functions: PythonFunctionEntry[];
  /** Problems that do not stop loading, such as a script that does not exist yet. */
  warnings: ConfigIssue[];
  /** The resolved value of each plugin's tools.json key, by the plugin's name. */
  sections: Map<string, unknown>;
}

export type LoadToolsResult =
  | { status: "ok"; config: LoadedToolsConfig }
  | { status: "missing" | "invalid"; issues: ConfigIssue[] };

/** Interpreters with a slash are paths relative to the root; bare names are looked up on PATH. */
export function resolveInterpreter(root: string, interpreter: string | undefined): string | undefined {
  if (interpreter === undefined) return undefined;
  return interpreter.includes("/") ? path.resolve(root, interpreter) : interpreter;
}

/**
 * Read and resolve `tools.json` (or `fileName`) under `root`, with the keys `sections` own. Never
 * throws for file content. `content`: check these bytes as the file's content instead of reading it.
 */
export async function loadToolsConfig(root: string, fileName: string, content?: Uint8Array, sections: readonly OwnedSection[] = []): Promise<LoadToolsResult> {
  const absolutePath = path.resolve(root, fileName);
  const file = path.relative(root, absolutePath) || fileName;
  const schema = toolsConfigSchemaWith(sections);
  const read = await readJsonConfig(absolutePath, file, schema, 'create it with { "tools": [] } (see docs/config.md) or pass `toolsConfig: false` to run without local tools', content, (value) => isWellFormedToolsConfig(value, schema));
  if (read.status === "missing") return read;
  if (read.status === "ok") {
    const resolved = resolveTools(root, file, read.data.defaults ?? {}, read.data.tools, read.document, true);
    const owned = resolveKeySections(sections, { root, file, document: read.document, toolDefaults: resolved.toolDefaults });
    if (resolved.result.status !== "ok" || owned.issues.length > 0) return { status: "invalid", issues: [...(resolved.result.status === "ok" ? [] : resolved.result.issues), ...owned.issues] };
    const { config } = resolved.result;
    return { status: "ok", config: { ...config, warnings: [...config.warnings, ...owned.warnings], sections: owned.values } };
  }
  if (read.document === undefined) return read;
  // The checks the schema cannot make run even when the schema failed elsewhere in the file, on
  // every tool that is valid on its own: one round of fixes then covers every problem.
  const rawTools = valueAt(read.document.value, ["tools"]);
  const checked = resolveTools(root, file, {}, Array.isArray(rawTools) ? rawTools : [], read.document, false);
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
    if (written !== undefined && !section.schema.safeParse(written).success) continue;
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
  defaults: NonNullable<ToolsConfigFile["defaults"]>,
  rawTools: unknown[],
  document: JsonDocument,
  /** The whole file passed the schema, so every entry has its shape (no need to check each again). */
  shapesChecked: boolean,
): { result: LoadToolsResult; toolDefaults: ToolDefaults } {
  const issues: ConfigIssue[] = [];
  const warnings: ConfigIssue[] = [];
  const issue = (list: ConfigIssue[], at: JsonPath, message: string) =>
    list.push({ file, path: formatJsonPath(at), ...document.locate(at), message });
  const paths = resolveProjectPaths(root, { listToolFiles: true });
  const toolsFolderProblem = checkToolsFolder(paths);
  if (toolsFolderProblem) issue(issues, ["tools"], toolsFolderProblem.message);
  const tools: ScriptToolEntry[] = [];
  const functions: PythonFunctionEntry[] = [];
  const report = (at: JsonPath, message: string, warning = false) => issue(warning ? warnings : issues, at, message);
  checkNames(rawTools, (at, message) => issue(issues, at, message));
  const defaultEnv = resolveToolEnvironment(defaults.env ?? {}, ["defaults", "env"], report);

  for (const [index, rawTool] of rawTools.entries()) {
    // An entry the schema rejected has its issues already; the checks below need its shape.
    if (!shapesChecked && !toolEntrySchema.safeParse(rawTool).success) {
      // Which kind of entry it is, and what it lacks, needs only its keys: one round of fixes covers all.
      if (rawTool !== null && typeof rawTool === "object" && !Array.isArray(rawTool)) {
        checkEntryKind(rawTool as ToolEntryFile, (...rest) => ["tools", index, ...rest], (place, message) => issue(issues, place, message));
      }
      continue;
    }
    // The document's value rather than zod's copy, as in readJsonConfig: it keeps "__proto__" keys.
    const tool = rawTool as ToolEntryFile;
    const at = (...rest: JsonPath) => ["tools", index, ...rest];

    if (!checkEntryKind(tool, at, (place, message) => issue(issues, place, message))) continue;
    const pathKey = tool.function === undefined ? "script" : "function";
    const modulePath = tool.function?.slice(0, tool.function.lastIndexOf(":"));
    const script = checkScriptPath(paths, modulePath ?? tool.script!);
    if (script.problem) issue(script.problem.warning ? warnings : issues, at(pathKey), script.problem.message);

    for (const key of ["inputSchema", "outputSchema"] as const) {
      const schema = tool[key];
      if (schema === undefined) continue;
      for (const problem of checkToolSchema(key, schema)) issue(issues, at(key, ...problem.path), problem.message);
    }

    const cwd = checkCwd(paths, tool.cwd);
    if (cwd.problem) issue(issues, at("cwd"), cwd.problem.message);
    if (tool.interpreter !== undefined && tool.function === undefined && tool.runtime !== "python") {
      issue(issues, at("interpreter"), `"interpreter" applies to the python runtime only, got runtime ${JSON.stringify(tool.runtime)}`);
    }

    const env = { ...defaultEnv, ...resolveToolEnvironment(tool.env ?? {}, at("env"), report) };
    const timeoutMs = tool.timeoutMs ?? defaults.timeoutMs;
    const memoryLimitMb = tool.memoryLimitMb ?? defaults.memoryLimitMb;
    if (tool.function !== undefined) {
      functions.push({
        name: tool.name,
        ...(tool.title === undefined ? {} : { title: tool.title }),
        ...(tool.description === undefined ? {} : { description: tool.description }),
        module: script.absolute,
        modulePath: modulePath!,
        function: tool.function.slice(tool.function.lastIndexOf(":") + 1),
        interpreter: resolveInterpreter(root, tool.interpreter ?? defaults.python) ?? "python3",
        ...(tool.inputSchema === undefined ? {} : { inputSchema: tool.inputSchema }),
        ...(tool.outputSchema === undefined ? {} : { outputSchema: tool.outputSchema }),
        ...(tool.annotations === undefined ? {} : { annotations: tool.annotations }),
        ...(timeoutMs === undefined ? {} : { timeoutMs }),
        parallel: tool.parallel ?? defaults.parallel ?? false,
        env,
        cwd: cwd.absolute,
        ...(memoryLimitMb === undefined ? {} : { memoryLimitMb }),
      });
      continue;
    }
    tools.push({
      name: tool.name,
      ...(tool.title === undefined ? {} : { title: tool.title }),
      description: tool.description!,
      runtime: tool.runtime!,
      script: script.absolute,
      scriptPath: tool.script!,
      args: tool.args ?? [],
      ...(tool.runtime === "python" ? { interpreter: resolveInterpreter(root, tool.interpreter ?? defaults.python) ?? "python3" } : {}),
      inputSchema: tool.inputSchema!,
      ...(tool.outputSchema === undefined ? {} : { outputSchema: tool.outputSchema }),
      ...(tool.annotations === undefined ? {} : { annotations: tool.annotations }),
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
      parallel: tool.parallel ?? defaults.parallel ?? false,
      env,
      cwd: cwd.absolute,
      maxOutputBytes: tool.maxOutputBytes ?? defaults.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
    });
  }
  const { env: _writtenEnv, ...writtenDefaults } = defaults;
  const toolDefaults: ToolDefaults = { ...writtenDefaults, env: defaultEnv };
  if (issues.length > 0) return { result: { status: "invalid", issues }, toolDefaults };
  return { result: { status: "ok", config: { tools, functions, warnings, sections: new Map() } }, toolDefaults };
}

/** Keys that only a script tool has; a function tool runs on a warm Python worker. */
const SCRIPT_ONLY_KEYS = ["runtime", "args", "maxOutputBytes"] as const;

/**
 * A tool is a script (`runtime` + `script`, with `description` and `inputSchema`) or a Python
 * function (`function`); one message per wrong or missing key. False when the entry cannot be resolved.
 */
function checkEntryKind(tool: ToolEntryFile, at: (...rest: JsonPath) => JsonPath, report: (at: JsonPath, message: string) => void): boolean {
  let ok = true;
  if (tool.function === undefined && tool.memoryLimitMb !== undefined) {
    report(at("memoryLimitMb"), '"memoryLimitMb" applies to function tools only: it caps a warm Python worker (remove it, or name a function)');
    ok = false;
  }
  if (tool.function !== undefined) {
    if (tool.script !== undefined) {
      report(at("script"), 'Expected either "script" or "function", got both: a function tool names a Python function ("file.py:name") and has no script');
      ok = false;
    }
    for (const key of SCRIPT_ONLY_KEYS) {
      if (tool[key] === undefined) continue;
      report(at(key), `"${key}" applies to script tools only; a function tool runs on a warm Python worker (remove "${key}")`);
      ok = false;
    }
    return ok;
  }
  const required = [
    ["description", "a string"],
    ["runtime", 'one of "python", "shell", "node"'],
    ["script", 'a string; or name a Python function with "function": "file.py:name"'],
    ["inputSchema", "an object"],
  ] as const;
  for (const [key, expected] of required) {
    if (tool[key] !== undefined) continue;
    report(at(), `Missing required key "${key}" (expected ${expected})`);
    ok = false;
  }
  return ok;
}
