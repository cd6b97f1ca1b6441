/**
 * Python environments in tests: a folder shared by the whole run (one build of each requirement set,
 * whatever the number of test files), fresh folders for the tests about first builds, and uv, which
 * `.ci/run` installs from PyPI and puts on PATH.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll } from "vitest";

/** The run's shared folder: `TOOLEXEC_PYTHON_ENVS` when the run sets one (CI), else one in the OS temp folder. */
export const SHARED_ENVIRONMENTS = process.env["TOOLEXEC_PYTHON_ENVS"] ?? path.join(os.tmpdir(), "toolexec-test-python-envs");
process.env["TOOLEXEC_PYTHON_ENVS"] = SHARED_ENVIRONMENTS;

const fresh: string[] = [];
afterAll(() => {
  for (const folder of fresh.splice(0)) rmSync(folder, { recursive: true, force: true });
  process.env["TOOLEXEC_PYTHON_ENVS"] = SHARED_ENVIRONMENTS;
});

/** An empty environments folder, made the current one (`TOOLEXEC_PYTHON_ENVS`) until the next call or the file's end. */
export function useFreshEnvironments(): string {
  const folder = mkdtempSync(path.join(os.tmpdir(), "toolexec-envs-"));
  fresh.push(folder);
  process.env["TOOLEXEC_PYTHON_ENVS"] = folder;
  return folder;
}

/** uv on PATH, or a throw saying how to get it: the uv path is tested for real, never skipped. */
export function requireUv(): string {
  try {
    return execFileSync("uv", ["--version"], { encoding: "utf8" }).trim();
  } catch {
    throw new Error("uv is not on PATH: run the tests through .ci/run, or `python3 -m venv /tmp/uv && /tmp/uv/bin/pip install uv==0.9.5` and put a link to /tmp/uv/bin/uv on PATH");
  }
}

/** A module whose import needs tabulate, which the host interpreter lacks. */
export const TABLE_MODULE = `import tabulate


def tabulate_version() -> str:
    """The version of tabulate this worker imports."""
    return tabulate.__version__


def render(rows: list[list[str]]) -> str:
    """Rows as a plain-text table."""
    return tabulate.tabulate(rows, tablefmt="plain")
`;
