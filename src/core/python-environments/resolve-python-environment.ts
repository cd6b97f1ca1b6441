/**
 * Which environment a Python entry (a function tool, a `pythonModules` item, a python-runtime script)
 * runs in, decided once at load: its own `python.requirements`, else a pyproject.toml beside its
 * file, else the project's `python.requirements`, else none (the interpreter as configured). Its own
 * requirements replace the project's rather than add to them: one entry's pins never clash with another's.
 */
import path from "node:path";
import type { JsonPath } from "../json/parse-json-document.js";
import { formatJsonPath } from "../json/parse-json-document.js";
import { checkRequirement, pyprojectBeside, readRequirementsFile, type PythonEnvironmentSpec, type PythonInstaller, type PythonRequirements } from "./python-requirements.js";

/** `requirements` as tools.json writes it (python-environment-schemas.ts holds its schema). */
export type WrittenRequirements = string[] | string;

/** The project's environment settings, resolved: what every Python entry without its own inherits. */
export interface ProjectPythonSettings {
  requirements?: PythonRequirements;
  installer?: PythonInstaller;
}

/** Resolve a written `requirements` value; problems go to `report` (at the value). Undefined when it has one. */
export function resolveRequirements(written: WrittenRequirements, toolsDir: string, at: JsonPath, report: (at: JsonPath, message: string) => void): PythonRequirements | undefined {
  if (typeof written === "string") {
    const read = readRequirementsFile(toolsDir, written);
    if (!read.ok) report(at, read.message);
    return read.ok ? read.requirements : undefined;
  }
  let valid = true;
  written.forEach((requirement, index) => {
    const problem = checkRequirement(requirement);
    if (problem) report([...at, index], problem);
    valid &&= problem === undefined;
  });
  return valid ? { kind: "list", requirements: written.map((requirement) => requirement.trim()) } : undefined;
}

export interface EntryEnvironmentInput {
  /** The entry's `python` key, when written. */
  own?: { requirements: WrittenRequirements };
  /** Where the entry is written, `tools[2]` or `pythonModules[0]`: its `python.requirements` is reported there. */
  at: JsonPath;
  /** The file the entry is written in (`tools.json`), for the spec's source. */
  file: string;
  /** The entry's Python file (absolute): a pyproject.toml beside it counts. */
  module: string;
  toolsDir: string;
  project: ProjectPythonSettings;
  report(at: JsonPath, message: string): void;
}

/**
 * The entry's environment, or undefined when it runs on the interpreter as configured.
 *
 * @example
 * const pythonEnvironment = resolveEntryEnvironment({ own: tool.python, at: ["tools", 2], file: "tools.json", module, toolsDir, project, report });
 */
export function resolveEntryEnvironment(input: EntryEnvironmentInput): PythonEnvironmentSpec | undefined {
  const installer = input.project.installer === undefined ? {} : { installer: input.project.installer };
  if (input.own) {
    const at = [...input.at, "python", "requirements"];
    const requirements = resolveRequirements(input.own.requirements, input.toolsDir, at, input.report);
    return requirements && { requirements, ...installer, source: `${input.file} ${formatJsonPath(input.at)}` };
  }
  const beside = pyprojectBeside(input.module);
  if (beside) return { requirements: beside, ...installer, source: `tools/${path.relative(input.toolsDir, beside.file)}` };
  if (input.project.requirements) return { requirements: input.project.requirements, ...installer, source: `${input.file} python.requirements` };
  return undefined;
}

/** tools.json's `python` key as written (checked by its schema). */
export interface WrittenProjectPython {
  requirements?: WrittenRequirements;
  installer?: PythonInstaller;
  maxWorkers?: number;
  maxAsyncCallsPerWorker?: number;
}

/** The project's `python` key resolved: its requirements read, the rest as written. */
export type ResolvedProjectPython = ProjectPythonSettings & Pick<WrittenProjectPython, "maxWorkers" | "maxAsyncCallsPerWorker">;

export function resolveProjectPython(written: WrittenProjectPython | undefined, toolsDir: string, report: (at: JsonPath, message: string) => void): ResolvedProjectPython {
  if (written === undefined) return {};
  const { requirements: writtenRequirements, ...rest } = written;
  const requirements = writtenRequirements === undefined ? undefined : resolveRequirements(writtenRequirements, toolsDir, ["python", "requirements"], report);
  return { ...rest, ...(requirements ? { requirements } : {}) };
}
