/**
 * Vitest global setup: what the tests need from PyPI, fetched once so that `npm test` alone runs the
 * whole suite on a fresh machine (the README's promise), in CI and on a laptop alike:
 * - `uv` and `mypy`, pinned, in a venv of their own under node_modules/.cache (only their commands go
 *   on the PATH every test process inherits, so `python3` stays the host interpreter the tests expect);
 * - one folder of built Python environments for the whole run (each requirement set is built once);
 * - the search model folder (scripts/fetch-search-model.mjs, idempotent: a complete folder is kept).
 * A machine that cannot reach PyPI gets one warning here; the tests that need these things then say
 * what is missing themselves.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, symlinkSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const cache = path.join(root, "node_modules", ".cache", "toolexec-test-tools");
const PINNED = ["uv==0.9.5", "mypy==1.18.2"];
const COMMANDS = ["uv", "mypy"];

function onPath(command: string): boolean {
  try {
    execFileSync(command, ["--version"], { stdio: "ignore", timeout: 30_000 });
    return true;
  } catch {
    return false;
  }
}

function installPythonTools(): void {
  const venv = path.join(cache, "venv");
  const bin = path.join(cache, "bin");
  const ready = COMMANDS.every((command) => existsSync(path.join(venv, "bin", command)));
  if (!ready) {
    execFileSync("python3", ["-m", "venv", venv], { stdio: "ignore", timeout: 120_000 });
    execFileSync(path.join(venv, "bin", "pip"), ["install", "--quiet", "--disable-pip-version-check", ...PINNED], { stdio: "pipe", timeout: 600_000 });
  }
  mkdirSync(bin, { recursive: true });
  for (const command of COMMANDS) {
    const link = path.join(bin, command);
    rmSync(link, { force: true });
    symlinkSync(path.join(venv, "bin", command), link);
  }
  process.env.PATH = [bin, process.env.PATH].join(path.delimiter);
}

export default function setup(): void {
  const missing = COMMANDS.filter((command) => !onPath(command));
  try {
    if (missing.length > 0) installPythonTools();
  } catch (error) {
    console.warn(`[test setup] could not install ${PINNED.join(", ")} from PyPI (${(error as Error).message.split("\n")[0]}); the tests that need them will fail saying so`);
  }
  process.env.TOOLEXEC_PYTHON_ENVS ??= path.join(cache, "python-envs");
  try {
    execFileSync(process.execPath, [path.join(root, "scripts", "fetch-search-model.mjs")], { stdio: "pipe", timeout: 600_000 });
  } catch (error) {
    console.warn(`[test setup] could not build the search model folder (${(error as Error).message.split("\n")[0]}); the model tests will say so`);
  }
}
