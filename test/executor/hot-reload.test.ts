/**
 * Hot reload through the real chokidar watcher: valid edits go live, invalid ones keep the last good
 * config. Most edits here land right after createExecutor resolves, before chokidar has finished its
 * first scan: they are seen by comparing the files with the snapshot taken before ready.
 */
import { existsSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { describe, expect, it, vi } from "vitest";
import { createExecutor, type Executor, type ExecutorEvents } from "../../src/index.js";
import { createTempProject, toolEntry, type TempProject } from "../helpers/temp-project.js";

const ECHO = "import json, sys\njson.dump({'version': sys.argv[1] if len(sys.argv) > 1 else None, 'args': json.load(sys.stdin)}, sys.stdout)\n";
/** Marks that it started, then waits (at most 10 s) until the test creates the release file. */
const GATED = [
  "import json, os, sys, time",
  "args = json.load(sys.stdin)",
  "open(args['started'], 'w').close()",
  "deadline = time.time() + 10",
  "while not os.path.exists(args['release']) and time.time() < deadline:",
  "    time.sleep(0.01)",
  "json.dump({'version': sys.argv[1]}, sys.stdout)",
  "",
].join("\n");

function project(): TempProject {
  const created = createTempProject({ tools: { tools: [toolEntry("echo", "python", "echo.py", { args: ["v1"] })] } });
  created.write("tools/echo.py", ECHO);
  created.write("tools/gated.py", GATED);
  return created;
}

/** The next event of that name, or a failure after `withinMs`. */
function next<Name extends keyof ExecutorEvents>(executor: Executor, event: Name, withinMs = 10_000): Promise<ExecutorEvents[Name]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      unsubscribe();
      reject(new Error(`no ${event} within ${withinMs} ms`));
    }, withinMs);
    const unsubscribe = executor.on(event, (payload) => {
      clearTimeout(timer);
      unsubscribe();
      resolve(payload);
    });
  });
}

const open = (root: string) => createExecutor({ root, logDir: false, logger: { debug() {}, info() {}, warn() {}, error() {} } });

describe("hot reload", () => {
  // How soon is measured in bench/hot-reload.mjs (target 250 ms); here, that the reload comes at all.
  it("makes an added tool callable once tools.json is written", async () => {
    const created = project();
    const executor = await open(created.root);
    const reloaded = next(executor, "config:reloaded");
    created.write("tools.json", { tools: [toolEntry("echo", "python", "echo.py", { args: ["v1"] }), toolEntry("echo_two", "python", "echo.py", { args: ["v2"] })] });
    const event = await reloaded;
    expect(event.tools).toEqual(["echo", "echo_two", "read_result"]);
    expect(event.restarted).toEqual(["script"]);
    expect(await executor.callTool("echo_two", { a: 1 })).toMatchObject({ ok: true, value: { version: "v2", args: { a: 1 } } });
    await executor.close();
  });

  it("keeps the last good config on an invalid edit and reports the precise problem", async () => {
    const created = project();
    const executor = await open(created.root);
    const failed = next(executor, "config:error");
    created.write("tools.json", '{ "tools": [ { "name": "echo", "description": "x", "runtime": "python", "script": "echo.py", "inputSchema": { "type": "object" }, "timeoutMs": "soon" } ] }');
    const event = await failed;
    expect(event.error.code).toBe("CONFIG_INVALID");
    expect(event.message).toBe('tools.json:1:144 tools[0].timeoutMs: Expected a number, got "soon"');
    expect(await executor.callTool("echo", {})).toMatchObject({ ok: true, value: { version: "v1" } });

    created.write("tools.json", "{ not json");
    expect((await next(executor, "config:error")).message).toMatch(/^tools\.json:1:3: Invalid JSON: expected a property name in double quotes, got 'not'$/);
    expect(await executor.callTool("echo", {})).toMatchObject({ ok: true });
    await executor.close();
  });

  it("rejects an invalid mcp.json edit too, keeping tools running", async () => {
    const created = project();
    const executor = await open(created.root);
    const failed = next(executor, "config:error");
    created.write("mcp.json", '{ "mcpServers": { "docs": { "command": "x", "extra": true } } }');
    expect((await failed).message).toMatchInlineSnapshot(`"mcp.json:1:45 mcpServers.docs.extra: Unknown key "extra"; expected one of: type, transport, command, python, args, env, envFile, cwd, url, serverUrl, headers, oauth, auth, enabled, disabled, autoApprove, alwaysAllow, prefix, timeoutMs, installTimeoutMs, start, idleTimeoutMs, retry, results, maxConcurrency, maxResponseBytes, includeTools, excludeTools, disabledTools, trust, quarantined, dev, gallery, version"`);
    expect(await executor.callTool("echo", {})).toMatchObject({ ok: true });
    await executor.close();
  });

  it("sees an editor's atomic save (write a temp file, rename it over tools.json)", async () => {
    const created = project();
    const executor = await open(created.root);
    const reloaded = next(executor, "config:reloaded");
    const temporary = created.path(".tools.json.tmp-1234");
    writeFileSync(temporary, JSON.stringify({ tools: [toolEntry("echo", "python", "echo.py", { args: ["v3"] })] }));
    renameSync(temporary, created.path("tools.json"));
    await reloaded;
    expect(await executor.callTool("echo", {})).toMatchObject({ ok: true, value: { version: "v3" } });
    await executor.close();
  });

  it("answers TOOL_NOT_FOUND for a removed tool", async () => {
    const created = project();
    const executor = await open(created.root);
    const reloaded = next(executor, "config:reloaded");
    created.write("tools.json", { tools: [] });
    await reloaded;
    expect(await executor.callTool("echo", {})).toMatchObject({ ok: false, error: { code: "TOOL_NOT_FOUND" } });
    await executor.close();
  });

  it("lets a call in flight finish on the definition it started with", async () => {
    const created = project();
    created.write("tools.json", { tools: [toolEntry("gated", "python", "gated.py", { args: ["old"], timeoutMs: 10_000 })] });
    const executor = await open(created.root);
    const gate = { started: created.path("started"), release: created.path("release") };
    let settled = false;
    const inFlight = executor.callTool("gated", gate).finally(() => (settled = true));
    await vi.waitFor(() => expect(existsSync(gate.started), "gated.py started").toBe(true), { timeout: 5_000, interval: 10 });
    const reloaded = next(executor, "config:reloaded");
    created.write("tools.json", { tools: [toolEntry("gated", "python", "gated.py", { args: ["new"], timeoutMs: 10_000 })] });
    await reloaded;
    // The reload really landed while the call was running: the script still waits for its release.
    expect(settled).toBe(false);
    writeFileSync(gate.release, "");
    expect(await inFlight).toMatchObject({ ok: true, value: { version: "old" } });
    expect(await executor.callTool("gated", gate)).toMatchObject({ ok: true, value: { version: "new" } });
    await executor.close();
  });

  it("updates warnings when a missing script appears in tools/", async () => {
    const created = project();
    created.write("tools.json", { tools: [toolEntry("later", "python", "later.py")] });
    const executor = await open(created.root);
    expect(executor.warnings.map((warning) => warning.message)).toEqual(["Script not found: tools/later.py (calls will fail with SCRIPT_MISSING until it exists)"]);
    expect(await executor.callTool("later", {})).toMatchObject({ ok: false, error: { code: "SCRIPT_MISSING" } });
    const reloaded = next(executor, "config:reloaded");
    created.write("tools/later.py", "print('here')\n");
    expect((await reloaded).warnings).toEqual([]);
    expect(executor.warnings).toEqual([]);
    expect(await executor.callTool("later", {})).toMatchObject({ ok: true, value: "here" });
    await executor.close();
  });

  it("reports a deleted tools.json as CONFIG_MISSING and recovers when it returns", async () => {
    const created = project();
    const executor = await open(created.root);
    const failed = next(executor, "config:error");
    rmSync(created.path("tools.json"));
    expect((await failed).error.code).toBe("CONFIG_MISSING");
    expect(await executor.callTool("echo", {})).toMatchObject({ ok: true });
    const reloaded = next(executor, "config:reloaded");
    created.write("tools.json", { tools: [toolEntry("echo", "python", "echo.py", { args: ["back"] })] });
    await reloaded;
    expect(await executor.callTool("echo", {})).toMatchObject({ ok: true, value: { version: "back" } });
    await executor.close();
  });

  it("stops watching on close: the watcher's file-system handles are released", async () => {
    const created = project();
    // chokidar releases its fs.watch handles a moment after close() resolves, so poll (bounded) for them.
    const watchHandles = () => process.getActiveResourcesInfo().filter((resource) => resource === "FSEventWrap").length;
    const released = () => vi.waitFor(() => expect(watchHandles(), "fs.watch handles still open").toBe(0), { timeout: 5_000, interval: 10 });
    await released(); // an earlier test's watcher may still be letting go
    const executor = await open(created.root);
    // Positive control: while open, the executor watches the project (chokidar starts after ready).
    await vi.waitFor(() => expect(watchHandles()).toBeGreaterThan(0), { timeout: 5_000, interval: 10 });
    await executor.close();
    await released();
  });

  it("does not restart unchanged plugins when only a script's content changes", async () => {
    const created = project();
    const executor = await open(created.root);
    const reloaded = next(executor, "config:reloaded");
    created.write("tools/echo.py", ECHO.replace("'version'", "'release'"));
    expect((await reloaded).restarted).toEqual([]);
    expect(await executor.callTool("echo", {})).toMatchObject({ ok: true, value: { release: "v1" } });
    await executor.close();
  });
});

describe("edits in quick succession", () => {
  it("applies an edit that lands right after a reload, even with reloadDebounceMs 0 (the watcher drops repeated changes within 50 ms)", async () => {
    const project = createTempProject();
    project.useFixtures("echo.py");
    project.write("tools.json", { tools: [toolEntry("first", "python", "echo.py")] });
    const executor = await createExecutor({ root: project.root, logDir: false, reloadDebounceMs: 0 });
    try {
      const reloaded = new Promise<void>((resolve) => executor.on("config:reloaded", () => resolve()));
      project.write("tools.json", { tools: [toolEntry("second", "python", "echo.py")] });
      await reloaded;
      const applied = new Promise<void>((resolve) =>
        executor.on("config:reloaded", ({ tools }) => {
          if (tools.includes("third")) resolve();
        }),
      );
      project.write("tools.json", { tools: [toolEntry("third", "python", "echo.py")] });
      await applied;
      expect((await executor.listTools()).map((tool) => tool.name)).toEqual(["third", "read_result"]);
    } finally {
      await executor.close();
    }
  });
});
