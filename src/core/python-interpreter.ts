/**
 * Finds the real Python interpreter behind a command, once. Version-manager shims (pyenv, asdf)
 * are scripts that cost 50–100 ms a spawn (more on a busy machine); spawning what they resolve to
 * skips that for every later script run and warm worker. Shared by the script and python plugins.
 *
 * - A path (anything with a slash) is what the user chose — a virtualenv's `bin/python`, a wrapper
 *   script — and is spawned as given, never second-guessed.
 * - A bare name is looked up on PATH. A native executable whose real name is python… is the
 *   interpreter itself: used as found (not its symlink target, which may be a venv's base), with
 *   no spawn. Anything else (a shim script, a shim binary) is asked once per folder for
 *   `sys.executable`, since shims choose the version by the folder's `.python-version`.
 */
import { constants } from "node:fs";
import { access, open, realpath } from "node:fs/promises";
import path from "node:path";
import { loadExeca } from "./load-execa.js";

const resolved = new Map<string, Promise<string>>();

/**
 * The interpreter to spawn for `command`, as seen from `cwd`. Rejects when a bare name can be
 * neither found nor started.
 *
 * @example
 * const python = await resolvePythonInterpreter("python3", root); // e.g. /root/.pyenv/versions/3.11.7/bin/python3
 */
export function resolvePythonInterpreter(command: string, cwd: string): Promise<string> {
  if (command.includes("/") || command.includes(path.sep)) return checkPath(command);
  const key = `${cwd}\u0000${command}`;
  let result = resolved.get(key);
  if (!result) {
    result = findInterpreter(command, cwd).catch((error: unknown) => {
      resolved.delete(key); // an interpreter installed later is found on the next try
      throw error;
    });
    resolved.set(key, result);
  }
  return result;
}

/** A chosen path, checked so that a missing one is named as such rather than as a failed spawn. */
async function checkPath(file: string): Promise<string> {
  try {
    await access(file, constants.X_OK);
    return file;
  } catch (error) {
    const detail = (error as NodeJS.ErrnoException).code === "ENOENT" ? "not found" : "not executable";
    throw cannotStart(file, detail);
  }
}

function cannotStart(command: string, detail: string): Error {
  return new Error(`Python interpreter "${command}" could not be started (${detail}); install Python or set "interpreter" / defaults.python in tools.json`);
}

async function findInterpreter(command: string, cwd: string): Promise<string> {
  const found = await findOnPath(command);
  if (found !== undefined && (await isNativePython(found))) return found;
  return askForExecutable(command, cwd);
}

async function findOnPath(command: string): Promise<string | undefined> {
  if (process.platform === "win32") return undefined; // PATHEXT and .exe: let the interpreter say
  for (const folder of (process.env.PATH ?? "").split(path.delimiter)) {
    if (folder === "" || !path.isAbsolute(folder)) continue;
    const candidate = path.join(folder, command);
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this folder
    }
  }
  return undefined;
}

/** Not a script (`#!`) and, symlinks followed, named python…: the interpreter, not a shim. */
async function isNativePython(file: string): Promise<boolean> {
  try {
    if (!/^python/.test(path.basename(await realpath(file)))) return false;
    const handle = await open(file, "r");
    try {
      const { buffer, bytesRead } = await handle.read(Buffer.alloc(2), 0, 2, 0);
      return !(bytesRead === 2 && buffer.toString("latin1") === "#!");
    } finally {
      await handle.close();
    }
  } catch {
    return false;
  }
}

async function askForExecutable(command: string, cwd: string): Promise<string> {
  try {
    const execa = await loadExeca();
    const { stdout } = await execa(command, ["-c", "import sys; sys.stdout.write(sys.executable or '')"], { cwd, timeout: 15_000, stdin: "ignore" });
    return stdout.trim() === "" ? command : stdout.trim();
  } catch (error) {
    throw cannotStart(command, (error as { code?: string }).code === "ENOENT" ? "not found" : (error as Error).message.split("\n")[0]!);
  }
}
