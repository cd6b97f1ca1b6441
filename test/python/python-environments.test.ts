/**
 * Python environments for real: tools needing a package the host interpreter lacks (tabulate) run
 * after their environment is built with uv or with venv + pip; a second executor reuses it; a bad
 * requirement is a clear error carrying the installer's words while the other tools work; a lock
 * left by a crashed builder is taken over; concurrent `python sync` processes build once.
 */
import { execFileSync, spawn } from "node:child_process";
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../cli/run-cli.js";
import { ensurePythonEnvironment } from "../../src/core/python-environments/ensure-python-environment.js";
import { createTempProject } from "../helpers/temp-project.js";
import { nextEvent } from "../helpers/next-event.js";
import { requireUv, TABLE_MODULE, useFreshEnvironments } from "./python-environment-helpers.js";
import { pythonProject, startExecutor } from "./python-test-helpers.js";

function notesOf() {
  const notes: string[] = [];
  const warnings: string[] = [];
  return { notes, warnings, logger: { debug() {}, info: (message: string) => void notes.push(message), warn: (message: string) => void warnings.push(message), error: (message: string) => void warnings.push(message) } };
}

function tableProject(python: object, extraTools: object[] = []) {
  const project = pythonProject([{ name: "tabulate_version", function: "table.py:tabulate_version", python }, { name: "word_count", function: "text_tools.py:word_count" }, ...extraTools]);
  project.write("tools/table.py", TABLE_MODULE);
  return project;
}

describe("Python environments", () => {
  it("builds a tool's environment with uv on first use; a second executor reuses it without building", async () => {
    requireUv();
    const folder = useFreshEnvironments();
    const project = tableProject({ requirements: ["tabulate==0.9.0"] });
    project.write("tools.json", { tools: [{ name: "tabulate_version", function: "table.py:tabulate_version", python: { requirements: ["tabulate==0.9.0"] } }], python: { installer: "uv" } });
    const first = notesOf();
    const events: unknown[] = [];
    const executor = await startExecutor(project, { logger: first.logger });
    executor.on("python:environment", (event) => void events.push(event));
    expect(await executor.callTool("tabulate_version", {})).toMatchObject({ ok: true, value: "0.9.0" });
    expect(first.notes.filter((note) => note.startsWith("Building the Python environment of tools.json tools[0] (tabulate==0.9.0) with uv"))).toHaveLength(1);
    expect(events.map((event) => (event as { stage: string }).stage)).toEqual(["building", "built"]);
    const built = readdirSync(folder).filter((name) => !name.endsWith(".lock"));
    expect(built).toHaveLength(1);
    expect(JSON.parse(execFileSync(path.join(folder, built[0]!, "bin", "python"), ["-c", "import json,tabulate;print(json.dumps(tabulate.__version__))"], { encoding: "utf8" }))).toBe("0.9.0");
    await executor.close();

    const second = notesOf();
    const again = await startExecutor(project, { logger: second.logger });
    expect(await again.callTool("tabulate_version", {})).toMatchObject({ ok: true, value: "0.9.0" });
    expect(second.notes.filter((note) => note.includes("Building"))).toEqual([]);
  }, 120_000);

  it("rebuilds on hot reload when the requirements change: the tool then imports the new version", async () => {
    requireUv();
    const project = tableProject({ requirements: ["tabulate==0.9.0"] });
    const executor = await startExecutor(project, { watch: true, reloadDebounceMs: 10 });
    expect(await executor.callTool("tabulate_version", {})).toMatchObject({ ok: true, value: "0.9.0" });
    const reloaded = nextEvent(executor, "config:reloaded", () => true, 120_000);
    project.write("tools.json", { tools: [{ name: "tabulate_version", function: "table.py:tabulate_version", python: { requirements: ["tabulate==0.8.10"] } }] });
    await reloaded;
    expect(await executor.callTool("tabulate_version", {})).toMatchObject({ ok: true, value: "0.8.10" });
  }, 180_000);

  it("builds with venv + pip when asked, and python-runtime scripts of the project run in the project's environment", async () => {
    useFreshEnvironments();
    const project = tableProject({ requirements: ["tabulate==0.9.0"] });
    project.write("tools/version.py", "import json, tabulate\nprint(json.dumps({'version': tabulate.__version__}))\n");
    project.write("tools.json", {
      python: { requirements: ["tabulate==0.9.0"], installer: "pip" },
      tools: [
        { name: "tabulate_version", function: "table.py:tabulate_version" },
        { name: "script_version", description: "tabulate's version, from a script", runtime: "python", script: "version.py", inputSchema: { type: "object" } },
      ],
    });
    const log = notesOf();
    const executor = await startExecutor(project, { logger: log.logger });
    expect(await executor.callTool("tabulate_version", {})).toMatchObject({ ok: true, value: "0.9.0" });
    expect(await executor.callTool("script_version", {})).toMatchObject({ ok: true, value: { version: "0.9.0" } });
    expect(log.notes.filter((note) => note.startsWith("Building the Python environment of tools.json python.requirements (tabulate==0.9.0) with pip"))).toHaveLength(1);
  }, 180_000);

  it("a requirement that cannot be resolved fails its tools with the installer's words; the other tools work", async () => {
    requireUv();
    const project = tableProject({ requirements: ["toolexec-no-such-package-29==1.0"] });
    const log = notesOf();
    const executor = await startExecutor(project, { logger: log.logger });
    const failed = await executor.callTool("tabulate_version", {});
    expect(failed).toMatchObject({ ok: false, error: { code: "TOOL_FAILED" } });
    const message = (failed as { error: { message: string } }).error.message;
    expect(message).toContain('Python tool "tabulate_version" is unavailable: Building the Python environment of tools.json tools[0] failed: uv pip install exited with code 1');
    expect(message).toContain("toolexec-no-such-package-29");
    expect(message.length).toBeLessThan(6000);
    expect(await executor.callTool("word_count", { text: "still works" })).toMatchObject({ ok: true, value: 2 });
  }, 120_000);

  it("takes over a lock left by a builder that died, and never publishes a half-built folder", async () => {
    requireUv();
    const folder = useFreshEnvironments();
    const project = tableProject({ requirements: ["tabulate==0.9.0"] });
    const spec = { requirements: { kind: "list" as const, requirements: ["tabulate==0.9.0"] }, source: "test" };
    const dead = spawn(process.execPath, ["-e", ""]);
    await new Promise((resolve) => dead.once("exit", resolve));
    // What a crashed builder leaves: its lock (its pid, gone now) and its temporary folder.
    const located = await import("../../src/core/python-environments/ensure-python-environment.js").then((module) => module.locatePythonEnvironment(spec, { interpreter: "python3", cwd: project.root }));
    writeFileSync(`${located.folder}.lock`, JSON.stringify({ pid: dead.pid, host: (await import("node:os")).hostname(), startedAt: new Date().toISOString() }));
    writeFileSync(`${located.folder}.building-${dead.pid}-1`, "half");
    const environment = await ensurePythonEnvironment(spec, { interpreter: "python3", cwd: project.root });
    expect(environment).toMatchObject({ built: true, folder: located.folder });
    expect(readdirSync(folder).sort()).toEqual([located.key]);
  }, 120_000);

  it("two `python sync` processes at once build the environment once; `python envs` lists it", async () => {
    requireUv();
    useFreshEnvironments();
    const project = createTempProject({ tools: { tools: [{ name: "tabulate_version", function: "table.py:tabulate_version" }], python: { requirements: ["tabulate==0.9.0"] } } });
    project.write("tools/table.py", TABLE_MODULE);
    const [one, two] = await Promise.all([runCli(["python", "sync", "--root", project.root]), runCli(["python", "sync", "--root", project.root])]);
    expect([one.code, two.code]).toEqual([0, 0]);
    const building = `${one.stderr}${two.stderr}`.split("\n").filter((line) => line.startsWith("Building tabulate==0.9.0 with uv"));
    expect(building).toHaveLength(1);
    const listed = JSON.parse((await runCli(["python", "envs", "--root", project.root, "--json"])).stdout);
    expect(listed.environments).toEqual([expect.objectContaining({ requirements: "tabulate==0.9.0", usedBy: ["tool tabulate_version"], built: true, installer: "uv" })]);
    expect(existsSync(listed.environments[0].interpreter)).toBe(true);
  }, 120_000);
});
