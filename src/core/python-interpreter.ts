/**
 * Finds the real Python interpreter behind a command once. Version-manager shims (pyenv, asdf)
 * cost ~100 ms a spawn; asking the interpreter for `sys.executable` skips them for every later
 * call. A virtualenv's `bin/python` is kept as is, since its path is what selects the venv.
 */
import { execa } from "execa";

const resolved = new Map<string, Promise<string>>();

/** The interpreter to spawn for `command`, as seen from `cwd` (shims read `.python-version` there). */
export function resolvePythonInterpreter(command: string, cwd: string): Promise<string> {
  const key = `${cwd}\u0000${command}`;
  let result = resolved.get(key);
  if (!result) {
    result = execa(command, ["-c", "import sys; sys.stdout.write(sys.executable or '')"], {
      cwd,
      timeout: 15_000,
      stdin: "ignore",
    }).then(
      ({ stdout }) => (stdout.trim() === "" ? command : stdout.trim()),
      (error: unknown) => {
        resolved.delete(key);
        const detail = (error as { code?: string }).code === "ENOENT" ? "not found" : (error as Error).message.split("\n")[0];
        throw new Error(`Python interpreter "${command}" could not be started (${detail}); install Python or set "interpreter" / defaults.python in tools.json`);
      },
    );
    resolved.set(key, result);
  }
  return result;
}
