/**
 * The Python helper as a package: `pip install` of the worker folder gives tests and type checkers
 * `from toolexec import tool`, typed (py.typed): mypy from PyPI (`.ci/run` puts it on PATH) sees a
 * decorated function's own signature.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, expect, it } from "vitest";

const WORKER = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "src", "plugins", "python", "worker");
const folder = mkdtempSync(path.join(os.tmpdir(), "toolexec-helper-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const USES_IT = `from toolexec import tool


@tool
def word_count(text: str) -> int:
    """Count the words in a text."""
    return len(text.split())


@tool(name="shout", parallel=True, timeout=5)
def upper(text: str) -> str:
    return text.upper()


count: int = word_count("a b c")
loud: str = upper("hi")
`;

it("installs with pip from the npm package's folder, and mypy checks code using it against its types", () => {
  // A copy: pip builds in the source folder, which must stay clean (in a user's node_modules it does no harm).
  const source = path.join(folder, "worker");
  cpSync(WORKER, source, { recursive: true, filter: (file) => !file.includes("__pycache__") });
  const venv = path.join(folder, "venv");
  execFileSync("python3", ["-m", "venv", venv]);
  const python = path.join(venv, "bin", "python");
  execFileSync(python, ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", source], { stdio: "pipe" });
  const installed = execFileSync(python, ["-c", "import toolexec, os; print(os.path.dirname(toolexec.__file__))"], { encoding: "utf8", cwd: folder }).trim();
  expect(existsSync(path.join(installed, "py.typed"))).toBe(true);
  expect(existsSync(path.join(path.dirname(installed), "toolexec_worker.py"))).toBe(false);

  writeFileSync(path.join(folder, "good.py"), USES_IT);
  writeFileSync(path.join(folder, "bad.py"), `${USES_IT}\nwrong: str = word_count(3)\n`);
  const mypy = (file: string) => spawnSync("mypy", ["--python-executable", python, "--strict", file], { encoding: "utf8", cwd: folder });
  const good = mypy("good.py");
  expect({ status: good.status, out: good.stdout.trim() }).toEqual({ status: 0, out: "Success: no issues found in 1 source file" });
  const bad = mypy("bad.py");
  expect(bad.status).toBe(1);
  expect(bad.stdout).toContain('bad.py:18: error: Incompatible types in assignment (expression has type "int", variable has type "str")');
  expect(bad.stdout).toContain('bad.py:18: error: Argument 1 to "word_count" has incompatible type "int"; expected "str"');
}, 180_000);
