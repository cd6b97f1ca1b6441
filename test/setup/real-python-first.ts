/**
 * Vitest global setup: the real Python interpreter, resolved once for the whole run, goes first on
 * the PATH every test process inherits. On machines where `python3` is a version-manager shim (a
 * pyenv script costs ~50 ms a spawn, several times that on a busy machine), every Python process
 * the suite starts — tools, warm workers, fixtures, `python3 -c` checks — then skips it. The
 * resolution with a shim is covered by test/script/python-interpreter.test.ts, which puts its own
 * shim first.
 */
import { execFileSync } from "node:child_process";
import path from "node:path";

export default function setup(): void {
  let executable: string;
  try {
    executable = execFileSync("python3", ["-c", "import sys; sys.stdout.write(sys.executable)"], { encoding: "utf8", timeout: 30_000 }).trim();
  } catch {
    return; // no python3 here: the Python tests say so themselves
  }
  if (!path.isAbsolute(executable)) return;
  process.env.PATH = [path.dirname(executable), process.env.PATH].join(path.delimiter);
}
