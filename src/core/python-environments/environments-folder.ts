/**
 * Where built Python environments live: one folder per distinct (requirements, interpreter), named
 * by a hash of both, shared by every project and executor of the user on this machine.
 * `TOOLEXEC_PYTHON_ENVS` overrides the place (CI caches, read-only homes).
 */
import { createHash } from "node:crypto";
import path from "node:path";
import { userCacheFolder } from "../files/user-cache-folder.js";
import type { PythonRequirements } from "./python-requirements.js";

/** The environment variable that names the environments folder. */
export const ENVIRONMENTS_FOLDER_VARIABLE = "TOOLEXEC_PYTHON_ENVS";

/**
 * `$TOOLEXEC_PYTHON_ENVS`, else the user cache folder: `$XDG_CACHE_HOME/toolexec/python-envs`,
 * `~/.cache/toolexec/python-envs` (Linux), `~/Library/Caches/toolexec/python-envs` (macOS),
 * `%LOCALAPPDATA%\toolexec\python-envs` (Windows).
 *
 * @example
 * pythonEnvironmentsFolder(); // "/home/ada/.cache/toolexec/python-envs"
 */
export function pythonEnvironmentsFolder(environment: Readonly<Record<string, string | undefined>> = process.env): string {
  const chosen = environment[ENVIRONMENTS_FOLDER_VARIABLE];
  if (chosen && path.isAbsolute(chosen)) return chosen;
  return path.join(userCacheFolder(environment), "python-envs");
}

/**
 * The environment's folder name: a hash of the base interpreter's real path and of what is installed
 * (the specifiers, or a file's content, never its path: two projects with the same requirements.txt
 * share one environment). The installer is not part of it: uv and pip build the same environment.
 */
export function environmentKey(interpreter: string, requirements: PythonRequirements): string {
  const what = requirements.kind === "list" ? { list: requirements.requirements } : { [requirements.kind]: requirements.contentHash };
  return createHash("sha256").update(JSON.stringify({ interpreter, what })).digest("hex").slice(0, 24);
}

/** The interpreter inside an environment folder. */
export function environmentInterpreter(folder: string): string {
  return process.platform === "win32" ? path.join(folder, "Scripts", "python.exe") : path.join(folder, "bin", "python");
}

/** The file written last into a finished environment (before the rename that publishes it): what it holds and how it was built. */
export const ENVIRONMENT_RECORD = "toolexec-environment.json";
