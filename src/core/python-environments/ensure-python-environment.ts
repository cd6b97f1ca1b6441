/**
 * The interpreter of an entry's Python environment, built on first use. Reuse costs a stat of the
 * environment's record (in-process, a map lookup); a build happens once per machine however many
 * calls, executors and `toolexec python sync` runs want it at once: they wait on one lock file. The
 * build goes into a temporary folder beside the final one and is published by a rename, so a folder
 * under its final name is always complete; a crashed build leaves only a temporary folder (removed
 * by the next build of the same environment) and a stale lock (taken over).
 */
import { constants } from "node:fs";
import { access, mkdir, readdir, readFile, realpath, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { resolvePythonInterpreter } from "../python-interpreter.js";
import { acquireLock } from "./environment-lock.js";
import { ENVIRONMENT_RECORD, environmentInterpreter, environmentKey, pythonEnvironmentsFolder } from "./environments-folder.js";
import { BUILD_TIMEOUT_MS, InstallError, installEnvironment } from "./install-environment.js";
import type { PythonEnvironmentSpec, PythonInstaller } from "./python-requirements.js";

/** A ready environment. */
export interface PythonEnvironment {
  key: string;
  folder: string;
  /** Its `bin/python`: what workers and scripts of its entries run. */
  interpreter: string;
  /** It was built by this call (false: it was there already, or another process built it). */
  built: boolean;
}

/** What a build tells the caller while it runs. */
export type EnvironmentProgress =
  | { stage: "waiting"; key: string; folder: string }
  | { stage: "building"; key: string; folder: string; installer: PythonInstaller }
  | { stage: "built"; key: string; folder: string; installer: PythonInstaller; durationMs: number };

export interface EnsureOptions {
  /** The base interpreter as configured (`python3`, a path) and the folder to resolve it from. */
  interpreter: string;
  cwd: string;
  /** Default `pythonEnvironmentsFolder()`. */
  folder?: string;
  onProgress?(progress: EnvironmentProgress): void;
}

/** Why an environment cannot be had: the installer's message, or a missing installer. */
export class PythonEnvironmentError extends Error {
  constructor(
    message: string,
    readonly details: Record<string, unknown>,
  ) {
    super(message);
  }
}

const ready = new Map<string, Promise<PythonEnvironment>>();

async function exists(file: string): Promise<boolean> {
  return access(file, constants.F_OK).then(() => true, () => false);
}

/** `uv` on PATH, found once. */
let uvOnPath: Promise<string | undefined> | undefined;
function findUv(): Promise<string | undefined> {
  uvOnPath ??= (async () => {
    for (const folder of (process.env["PATH"] ?? "").split(path.delimiter)) {
      if (!folder || !path.isAbsolute(folder)) continue;
      const candidate = path.join(folder, process.platform === "win32" ? "uv.exe" : "uv");
      if (await access(candidate, constants.X_OK).then(() => true, () => false)) return candidate;
    }
    return undefined;
  })();
  return uvOnPath;
}

/**
 * The interpreter of `spec`'s environment, built when missing. Throws {@link PythonEnvironmentError}.
 *
 * @example
 * const { interpreter } = await ensurePythonEnvironment(entry.pythonEnvironment, { interpreter: "python3", cwd: root });
 */
export async function ensurePythonEnvironment(spec: PythonEnvironmentSpec, options: EnsureOptions): Promise<PythonEnvironment> {
  const { base, root, key } = await locatePythonEnvironment(spec, options);
  const memo = `${root}\u0000${key}`;
  let pending = ready.get(memo);
  if (!pending) {
    pending = obtain(spec, base, root, key, options).catch((error: unknown) => {
      ready.delete(memo); // a fixed network or index is tried again by the next start
      throw error;
    });
    ready.set(memo, pending);
  }
  return pending;
}

/** Where `spec`'s environment is (or will be), without building it: its key, folder, base interpreter, and whether it is built. */
export async function locatePythonEnvironment(spec: PythonEnvironmentSpec, options: Omit<EnsureOptions, "onProgress">) {
  const resolved = await resolvePythonInterpreter(options.interpreter, options.cwd).catch((error: Error) => {
    throw new PythonEnvironmentError(error.message, { source: spec.source });
  });
  const base = await realpath(resolved).catch(() => resolved);
  const root = options.folder ?? pythonEnvironmentsFolder();
  const key = environmentKey(base, spec.requirements);
  const folder = path.join(root, key);
  return { base, root, key, folder, interpreter: environmentInterpreter(folder), built: await exists(path.join(folder, ENVIRONMENT_RECORD)) };
}

async function obtain(spec: PythonEnvironmentSpec, interpreter: string, root: string, key: string, options: EnsureOptions): Promise<PythonEnvironment> {
  const folder = path.join(root, key);
  const finished = () => exists(path.join(folder, ENVIRONMENT_RECORD));
  const found = { key, folder, interpreter: environmentInterpreter(folder), built: false };
  if (await finished()) return found;
  await mkdir(root, { recursive: true });
  const lock = await acquireLock(`${folder}.lock`, { staleAfterMs: BUILD_TIMEOUT_MS + 60_000, done: finished, onWait: () => options.onProgress?.({ stage: "waiting", key, folder }) });
  if (!lock) return found;
  try {
    if (await finished()) return found;
    await build(spec, interpreter, folder, options);
    return { ...found, built: true };
  } finally {
    await lock.release();
  }
}

async function chooseInstaller(spec: PythonEnvironmentSpec): Promise<{ installer: PythonInstaller; uv?: string }> {
  const uv = await findUv();
  if (spec.installer === "pip") return { installer: "pip" };
  if (uv) return { installer: "uv", uv };
  if (spec.installer === "uv") throw new PythonEnvironmentError(`${spec.source} asks for the uv installer, but uv is not on PATH: install it (pip install uv, or https://docs.astral.sh/uv/) or set "installer": "pip"`, { source: spec.source });
  return { installer: "pip" };
}

/** Build under the lock: into a temporary folder, published by a rename. */
async function build(spec: PythonEnvironmentSpec, interpreter: string, folder: string, options: EnsureOptions): Promise<void> {
  const { installer, uv } = await chooseInstaller(spec);
  const started = Date.now();
  const key = path.basename(folder);
  options.onProgress?.({ stage: "building", key, folder, installer });
  const temporary = `${folder}.building-${process.pid}-${Date.now()}`;
  // A folder without its record is no environment (made by hand); temporary ones are left by crashed builds.
  const leftovers = (await readdir(path.dirname(folder))).filter((name) => name.startsWith(`${key}.building-`));
  for (const name of [key, ...leftovers]) await rm(path.join(path.dirname(folder), name), { recursive: true, force: true });
  try {
    await installEnvironment({ interpreter, requirements: spec.requirements, installer, ...(uv ? { uv } : {}), folder: temporary, finalFolder: folder, env: process.env });
    const record = { key, interpreter, requirements: spec.requirements, source: spec.source, installer, builtAt: new Date().toISOString() };
    await writeFile(path.join(temporary, ENVIRONMENT_RECORD), `${JSON.stringify(record, null, 2)}\n`);
    await rename(temporary, folder);
  } catch (error) {
    await rm(temporary, { recursive: true, force: true });
    if (error instanceof InstallError) throw new PythonEnvironmentError(`Building the Python environment of ${spec.source} failed: ${error.message}`, { source: spec.source, installer, output: error.output });
    throw error;
  }
  options.onProgress?.({ stage: "built", key, folder, installer, durationMs: Date.now() - started });
}

/** The record of a built environment, or undefined. */
export async function readEnvironmentRecord(folder: string): Promise<Record<string, unknown> | undefined> {
  return readFile(path.join(folder, ENVIRONMENT_RECORD), "utf8").then((text) => JSON.parse(text) as Record<string, unknown>, () => undefined);
}
