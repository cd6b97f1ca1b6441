/**
 * One tools.json tool checked (paths, schemas, cwd, interpreter, env) and resolved into the entry its
 * plugin runs: a script tool's or a Python function's. Its problems are reported in one fixed order (kind,
 * script path, schemas, cwd, interpreter, env); the whole file's checks (names, the tools folder) are the loader's.
 */
import path from "node:path";
import type { JsonPath } from "../json/parse-json-document.js";
import { checkToolSchema } from "../schema/check-tool-schema.js";
import { checkCwd, checkScriptPath, type ProjectPaths } from "./check-tool-paths.js";
import { checkEntryKind } from "./check-entry-kind.js";
import type { PythonFunctionEntry, ScriptToolEntry } from "./load-tools-config.js";
import { resolveToolEnvironment } from "./resolve-tool-environment.js";
import type { PythonEnvironmentSpec } from "../python-environments/python-requirements.js";
import { resolveEntryEnvironment, type ProjectPythonSettings } from "../python-environments/resolve-python-environment.js";
import { DEFAULT_MAX_OUTPUT_BYTES } from "./tools-config-constants.js";
import type { ToolEntryFile, ToolsConfigFile } from "./tools-config-schema.js";

/** What resolving one entry needs from the rest of the file. */
export interface EntryContext {
  root: string;
  /** tools.json's name as messages show it. */
  file: string;
  paths: ProjectPaths;
  defaults: NonNullable<ToolsConfigFile["defaults"]>;
  /** `defaults.env`, resolved. */
  defaultEnv: Record<string, string>;
  /** tools.json's `python` key, resolved: the environment of Python entries without their own. */
  pythonProject: ProjectPythonSettings;
  /** A problem at `at`: an error, or a warning (the file still loads) when `warning` is true. */
  report: (at: JsonPath, message: string, warning?: boolean) => void;
}

export type ResolvedEntry = { kind: "script"; entry: ScriptToolEntry } | { kind: "function"; entry: PythonFunctionEntry };

/** Where a tool's checked script, working directory and environment ended up. */
interface ResolvedPlaces {
  script: string;
  cwd: string;
  env: Record<string, string>;
  pythonEnvironment?: PythonEnvironmentSpec;
}

/** The entry schema as this module uses it (loaded with zod only when a file fails its schema). */
export interface EntryShape {
  safeParse(value: unknown): { success: boolean };
}

/** Interpreters with a slash are paths relative to the root; bare names are looked up on PATH. */
export function resolveInterpreter(root: string, interpreter: string | undefined): string | undefined {
  if (interpreter === undefined) return undefined;
  return interpreter.includes("/") ? path.resolve(root, interpreter) : interpreter;
}

/**
 * `tools[index]` checked and resolved; undefined when it has errors that stop it resolving (they are
 * reported). `entryShape`: the entry schema, when the file failed its schema (undefined: the whole file
 * passed, so the entry need not be checked again).
 */
export function resolveToolEntry(rawTool: unknown, index: number, entryShape: EntryShape | undefined, context: EntryContext): ResolvedEntry | undefined {
  const at = (...rest: JsonPath) => ["tools", index, ...rest];
  const error = (place: JsonPath, message: string) => context.report(place, message);
  // An entry the schema rejected has its issues already; the checks below need its shape.
  if (entryShape !== undefined && !entryShape.safeParse(rawTool).success) {
    // Which kind of entry it is, and what it lacks, needs only its keys: one round of fixes covers all.
    if (rawTool !== null && typeof rawTool === "object" && !Array.isArray(rawTool)) checkEntryKind(rawTool as ToolEntryFile, at, error);
    return undefined;
  }
  // The document's value rather than zod's copy, as in readJsonConfig: it keeps "__proto__" keys.
  const tool = rawTool as ToolEntryFile;
  if (!checkEntryKind(tool, at, error)) return undefined;
  const modulePath = tool.function?.slice(0, tool.function.lastIndexOf(":"));
  const script = checkScriptPath(context.paths, modulePath ?? tool.script!);
  if (script.problem) context.report(at(tool.function === undefined ? "script" : "function"), script.problem.message, script.problem.warning);
  for (const key of ["inputSchema", "outputSchema"] as const) {
    const schema = tool[key];
    if (schema === undefined) continue;
    for (const problem of checkToolSchema(key, schema)) error(at(key, ...problem.path), problem.message);
  }
  const cwd = checkCwd(context.paths, tool.cwd);
  if (cwd.problem) error(at("cwd"), cwd.problem.message);
  if (tool.interpreter !== undefined && tool.function === undefined && tool.runtime !== "python") {
    error(at("interpreter"), `"interpreter" applies to the python runtime only, got runtime ${JSON.stringify(tool.runtime)}`);
  }
  const env = { ...context.defaultEnv, ...resolveToolEnvironment(tool.env ?? {}, at("env"), context.report) };
  const isPython = tool.function !== undefined || tool.runtime === "python";
  if (tool.python !== undefined && !isPython) error(at("python"), `"python" applies to Python tools only (a function, or the python runtime), got runtime ${JSON.stringify(tool.runtime)}`);
  const environment = isPython ? resolveEntryEnvironment({ ...(tool.python ? { own: tool.python } : {}), at: at(), file: context.file, module: script.absolute, toolsDir: context.paths.toolsDir, project: context.pythonProject, report: error }) : undefined;
  const places: ResolvedPlaces = { script: script.absolute, cwd: cwd.absolute, env, ...(environment ? { pythonEnvironment: environment } : {}) };
  if (tool.function !== undefined) return { kind: "function", entry: functionEntry(tool, modulePath!, places, context) };
  return { kind: "script", entry: scriptEntry(tool, places, context) };
}

/** A function tool's entry: `tool` with the defaults applied and its module made absolute. */
function functionEntry(tool: ToolEntryFile, modulePath: string, places: ResolvedPlaces, { root, defaults }: EntryContext): PythonFunctionEntry {
  const memoryLimitMb = tool.memoryLimitMb ?? defaults.memoryLimitMb;
  return {
    name: tool.name,
    ...(tool.title === undefined ? {} : { title: tool.title }),
    ...(tool.description === undefined ? {} : { description: tool.description }),
    module: places.script,
    modulePath,
    function: tool.function!.slice(tool.function!.lastIndexOf(":") + 1),
    interpreter: resolveInterpreter(root, tool.interpreter ?? defaults.python) ?? "python3",
    ...(tool.inputSchema === undefined ? {} : { inputSchema: tool.inputSchema }),
    ...runSettings(tool, places, defaults),
    ...(memoryLimitMb === undefined ? {} : { memoryLimitMb }),
    ...(places.pythonEnvironment ? { pythonEnvironment: places.pythonEnvironment } : {}),
  };
}

/** A script tool's entry: `tool` with the defaults applied and its script made absolute. */
function scriptEntry(tool: ToolEntryFile, places: ResolvedPlaces, { root, defaults }: EntryContext): ScriptToolEntry {
  return {
    name: tool.name,
    ...(tool.title === undefined ? {} : { title: tool.title }),
    description: tool.description!,
    runtime: tool.runtime!,
    script: places.script,
    scriptPath: tool.script!,
    args: tool.args ?? [],
    ...(tool.runtime === "python" ? { interpreter: resolveInterpreter(root, tool.interpreter ?? defaults.python) ?? "python3" } : {}),
    ...(places.pythonEnvironment ? { pythonEnvironment: places.pythonEnvironment } : {}),
    inputSchema: tool.inputSchema!,
    ...runSettings(tool, places, defaults),
    maxOutputBytes: tool.maxOutputBytes ?? defaults.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
  };
}

/** The keys both kinds of entry share, in the order both list them: output schema, hints, budget, overlap, env, cwd. */
function runSettings(tool: ToolEntryFile, places: ResolvedPlaces, defaults: EntryContext["defaults"]) {
  const timeoutMs = tool.timeoutMs ?? defaults.timeoutMs;
  return {
    ...(tool.outputSchema === undefined ? {} : { outputSchema: tool.outputSchema }),
    ...(tool.annotations === undefined ? {} : { annotations: tool.annotations }),
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    ...(tool.results?.maxChars === undefined ? {} : { results: { maxChars: tool.results.maxChars } }),
    parallel: tool.parallel ?? defaults.parallel ?? false,
    env: places.env,
    cwd: places.cwd,
  };
}
