/**
 * Builds one Python environment into a folder with uv (`uv venv --relocatable` + `uv pip install`)
 * or with the interpreter's own `venv` and pip. The folder is a temporary one beside its final
 * place; `ensurePythonEnvironment` publishes it by renaming. A failure carries the installer's own
 * words (the end of its output), since that is what says which requirement could not be resolved.
 */
import { loadExeca } from "../load-execa.js";
import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { environmentInterpreter } from "./environments-folder.js";
import type { PythonInstaller, PythonRequirements } from "./python-requirements.js";

/** Longest a build may take (downloads of large wheels included). */
export const BUILD_TIMEOUT_MS = 15 * 60_000;
/** Characters of the installer's output a failure keeps (its end). */
const OUTPUT_TAIL_CHARACTERS = 4000;

export class InstallError extends Error {
  constructor(
    message: string,
    /** The end of the installer's output. */
    readonly output: string,
  ) {
    super(message);
  }
}

/** The step's output when it failed, its end kept. */
function tailOf(text: string): string {
  const trimmed = text.trim();
  return trimmed.length > OUTPUT_TAIL_CHARACTERS ? `…${trimmed.slice(-OUTPUT_TAIL_CHARACTERS)}` : trimmed;
}

async function run(command: string, args: string[], what: string, env: Record<string, string | undefined>): Promise<void> {
  const execa = await loadExeca();
  const result = await execa(command, args, { reject: false, all: true, stdin: "ignore", timeout: BUILD_TIMEOUT_MS, env, extendEnv: false });
  if (result.exitCode === 0 && !result.failed) return;
  const output = tailOf(result.all ?? "");
  const how = result.timedOut ? `took longer than ${BUILD_TIMEOUT_MS / 60_000} minutes` : result.exitCode === undefined ? `could not start (${result.code ?? result.shortMessage})` : `exited with code ${result.exitCode}`;
  throw new InstallError(`${what} ${how}${output ? `:\n${output}` : ""}`, output);
}

/** pip cannot read a pyproject.toml as requirements: its `[project] dependencies`, read with tomllib. */
async function pyprojectDependencies(python: string, file: string, env: Record<string, string | undefined>): Promise<string[]> {
  const script = "import json,sys,tomllib\nwith open(sys.argv[1],'rb') as f: print(json.dumps(tomllib.load(f).get('project',{}).get('dependencies',[])))";
  const execa = await loadExeca();
  const result = await execa(python, ["-c", script, file], { reject: false, all: true, stdin: "ignore", env, extendEnv: false });
  if (result.exitCode !== 0) throw new InstallError(`Reading the dependencies of ${file} failed (pip needs Python 3.11's tomllib for a pyproject.toml; uv reads it on any Python):\n${tailOf(result.all ?? "")}`, result.all ?? "");
  return JSON.parse(result.stdout) as string[];
}

/** A venv's scripts name its interpreter by absolute path: after the rename they must name the final one. */
async function repointScripts(folder: string, from: string, to: string): Promise<void> {
  const bin = path.join(folder, "bin");
  for (const name of await readdir(bin).catch(() => [] as string[])) {
    const file = path.join(bin, name);
    const content = await readFile(file).catch(() => undefined);
    if (!content || content.length > 1_000_000 || !content.subarray(0, 2).equals(Buffer.from("#!"))) continue;
    const text = content.toString("utf8");
    if (text.includes(from)) await writeFile(file, text.split(from).join(to));
  }
}

export interface InstallOptions {
  /** The base interpreter (a real path). */
  interpreter: string;
  requirements: PythonRequirements;
  installer: PythonInstaller;
  /** The uv executable, when `installer` is uv. */
  uv?: string;
  /** Where to build (created here), and where the folder will be renamed to. */
  folder: string;
  finalFolder: string;
  env: Record<string, string | undefined>;
}

/**
 * Create the environment in `options.folder` and install its requirements. Throws {@link InstallError}.
 *
 * @example
 * await installEnvironment({ interpreter, requirements, installer: "uv", uv, folder: temp, finalFolder, env });
 */
export async function installEnvironment(options: InstallOptions): Promise<void> {
  const { folder, requirements, env } = options;
  const python = environmentInterpreter(folder);
  const files = requirements.kind === "list" ? [] : ["-r", requirements.file];
  const specifiers = requirements.kind === "list" ? requirements.requirements : [];
  if (options.installer === "uv") {
    const uv = options.uv!;
    await run(uv, ["venv", "--quiet", "--relocatable", "--python", options.interpreter, folder], "uv venv", env);
    if (files.length + specifiers.length > 0) await run(uv, ["pip", "install", "--python", python, ...files, ...specifiers], "uv pip install", env);
    return;
  }
  await run(options.interpreter, ["-m", "venv", folder], `${options.interpreter} -m venv`, env);
  const wanted = requirements.kind === "pyproject.toml" ? await pyprojectDependencies(python, requirements.file, env) : specifiers;
  const fromFile = requirements.kind === "requirements.txt" ? files : [];
  if (fromFile.length + wanted.length > 0) await run(python, ["-m", "pip", "install", "--disable-pip-version-check", "--no-input", "--quiet", ...fromFile, ...wanted], "pip install", env);
  await repointScripts(folder, folder, options.finalFolder);
}
