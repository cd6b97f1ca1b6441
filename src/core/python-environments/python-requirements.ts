/**
 * What a Python environment holds, as tools.json declares it: a list of requirement specifiers, a
 * requirements.txt under tools/, or a pyproject.toml beside a module. Files are read when the config
 * loads, so an edit changes the resolved entry, the hot reload restarts its tools, and the new
 * content's hash names a new environment.
 */
import { createHash } from "node:crypto";
import { readFileSync, realpathSync } from "node:fs";
import path from "node:path";
import { isInside } from "../config/check-tool-paths.js";

/** The installers toolexec drives: `uv` (fast; used when on PATH) or the interpreter's own `venv` + `pip`. */
export type PythonInstaller = "uv" | "pip";

/** An environment's requirements, resolved: the specifiers themselves, or a file read at load. */
export type PythonRequirements = { kind: "list"; requirements: string[] } | RequirementsFile;

/** A requirements.txt or pyproject.toml, with the hash of its content when the config loaded. */
export interface RequirementsFile {
  kind: "requirements.txt" | "pyproject.toml";
  file: string;
  contentHash: string;
}

/** The environment an entry runs in, as resolved at load: what to install, with which installer (absent: uv when on PATH). */
export interface PythonEnvironmentSpec {
  requirements: PythonRequirements;
  installer?: PythonInstaller;
  /** Where it is declared, for messages: `tools.json tools[2].python`, `tools/analytics/pyproject.toml`. */
  source: string;
}

/** A requirement that pip would read as an option (`-e .`, `--index-url`) belongs in a requirements.txt. */
export function checkRequirement(requirement: string): string | undefined {
  if (requirement.trim() === "") return "Expected a requirement such as \"six==1.17.0\", got an empty string";
  if (requirement.trim().startsWith("-")) return `Expected a requirement such as "six==1.17.0", got ${JSON.stringify(requirement)}: installer options belong in a requirements.txt`;
  if (/[\r\n]/.test(requirement)) return `Expected one requirement per item, got ${JSON.stringify(requirement)}`;
  return undefined;
}

/**
 * A requirements file under `folder` (tools/ for tools.json, the project for mcp.json) read now: its
 * hash names the environment. Returns a problem message when it is missing, unreadable or outside
 * `folder`; `shownAs` is how messages name the folder.
 */
export function readRequirementsFile(folder: string, relative: string, shownAs = "tools/"): { ok: true; requirements: PythonRequirements } | { ok: false; message: string } {
  const file = path.resolve(folder, relative);
  let real: string;
  let content: Buffer;
  try {
    real = realpathSync(file);
    content = readFileSync(real);
  } catch {
    return { ok: false, message: `Requirements file not found: ${shownAs}${relative}` };
  }
  if (!isInside(realpathSync(folder), real)) return { ok: false, message: `Expected a requirements file inside ${shownAs || "the project"}, but ${shownAs}${relative} leads to ${real}` };
  const kind = path.basename(real) === "pyproject.toml" ? "pyproject.toml" : "requirements.txt";
  return { ok: true, requirements: { kind, file: real, contentHash: createHash("sha256").update(content).digest("hex") } };
}

/** The pyproject.toml in a module's folder, when there is one: it counts as the module's requirements. */
export function pyprojectBeside(module: string): RequirementsFile | undefined {
  const file = path.join(path.dirname(module), "pyproject.toml");
  try {
    const content = readFileSync(file);
    return { kind: "pyproject.toml", file, contentHash: createHash("sha256").update(content).digest("hex") };
  } catch {
    return undefined;
  }
}

/** The requirements in words, for messages and listings: `six==1.17.0, tabulate` or `tools/requirements.txt`. */
export function describeRequirements(requirements: PythonRequirements, root: string): string {
  if (requirements.kind === "list") return requirements.requirements.length === 0 ? "(no requirements)" : requirements.requirements.join(", ");
  return path.relative(root, requirements.file) || requirements.file;
}
