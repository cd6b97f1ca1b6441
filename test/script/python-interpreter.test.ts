/**
 * Which Python runs a tool: a shim on PATH is asked once for its real interpreter, which then runs
 * every script and warm worker; an interpreter the user configured as a path (a venv's python, a
 * wrapper script) is spawned as given on every start. The suite's own PATH starts with the real
 * interpreter (test/setup/real-python-first.ts), so this file puts its own shim first.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExecutor, type Executor } from "../../src/index.js";
import { createTempProject, toolEntry, type TempProject } from "../helpers/temp-project.js";

const REAL_PYTHON = execFileSync("python3", ["-c", "import sys; sys.stdout.write(sys.executable)"], { encoding: "utf8" });
/** A script tool and a function tool that say which interpreter runs them and whether a wrapper started it. */
const WHERE_SCRIPT = "import json, os, sys\nprint(json.dumps({'executable': sys.executable, 'wrapped': os.environ.get('WRAPPED_BY_TEST')}))\n";
const WHERE_MODULE = "import os, sys\n\ndef where() -> dict:\n    \"\"\"Say which interpreter runs this worker.\"\"\"\n    return {'executable': sys.executable, 'wrapped': os.environ.get('WRAPPED_BY_TEST')}\n";

/** A launcher that counts its starts in `starts` and then runs the real interpreter, as a pyenv shim does. */
function launcher(file: string, starts: string, extra = ""): void {
  writeFileSync(file, `#!/usr/bin/env bash\necho start >> ${JSON.stringify(starts)}\n${extra}exec ${JSON.stringify(REAL_PYTHON)} "$@"\n`);
  chmodSync(file, 0o755);
}

const startsIn = (file: string) => (existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean).length : 0);

function whereProject(defaults: object): TempProject {
  const project = createTempProject({ tools: { defaults, tools: [toolEntry("where_script", "python", "where.py"), { name: "where_function", function: "where_module.py:where", parallel: true }] } });
  project.write("tools/where.py", WHERE_SCRIPT);
  project.write("tools/where_module.py", WHERE_MODULE);
  return project;
}

const executors: Executor[] = [];
const shimFolder = mkdtempSync(path.join(os.tmpdir(), "toolexec-shim-"));
const savedPath = process.env.PATH;
beforeAll(() => {
  process.env.PATH = [shimFolder, savedPath].join(path.delimiter);
});
afterAll(async () => {
  await Promise.all(executors.map((executor) => executor.close()));
  process.env.PATH = savedPath;
  rmSync(shimFolder, { recursive: true, force: true });
});

async function open(project: TempProject): Promise<Executor> {
  const executor = await createExecutor({ root: project.root, watch: false, logDir: false, logger: { debug() {}, info() {}, warn() {}, error() {} } });
  executors.push(executor);
  return executor;
}

describe("the Python interpreter", () => {
  it("asks a shim on PATH once, then runs every script and worker on the real interpreter", async () => {
    const starts = path.join(shimFolder, "shim-starts");
    launcher(path.join(shimFolder, "toolexec-test-python"), starts);
    const project = whereProject({ python: "toolexec-test-python" });
    const executor = await open(project);
    const results = await Promise.all([
      ...[1, 2, 3].map(() => executor.callTool("where_script", {})),
      ...[1, 2, 3].map(() => executor.callTool("where_function", {})),
    ]);
    for (const result of results) expect(result).toMatchObject({ ok: true, value: { executable: REAL_PYTHON, wrapped: null } });
    // Three script runs and at least one warm worker, and the shim ran once: to say where Python is.
    expect(startsIn(starts)).toBe(1);
  });

  it("spawns a configured interpreter path as given, on every start (a wrapper is not skipped)", async () => {
    const project = whereProject({ python: "bin/python-wrapper" });
    const starts = project.path("wrapper-starts");
    launcher(project.write("bin/python-wrapper", ""), starts, "export WRAPPED_BY_TEST=yes\n");
    const executor = await open(project);
    for (let call = 0; call < 3; call++) expect(await executor.callTool("where_script", {})).toMatchObject({ ok: true, value: { wrapped: "yes" } });
    expect(await executor.callTool("where_function", {})).toMatchObject({ ok: true, value: { wrapped: "yes" } });
    // Three script runs and the worker (started once to describe the module, kept warm for the call).
    expect(startsIn(starts)).toBeGreaterThanOrEqual(4);
  });
});
