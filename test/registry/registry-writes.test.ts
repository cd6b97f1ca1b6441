/** The library's registry writes on real projects: validation first, formatting kept, live on resolve, CONFLICT on hand edits. */
import { existsSync, readFileSync, symlinkSync, writeFileSync, mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createExecutor, type Executor, type ExecutorEvents } from "../../src/index.js";
import { createTempProject, toolEntry } from "../helpers/temp-project.js";

const quiet = { debug() {}, info() {}, warn() {}, error() {} };
const GREET = "#!/bin/sh\nprintf '{\"hello\": \"world\"}'\n";
const opened: Executor[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((executor) => executor.close()));
});

async function open(root: string, watch = false): Promise<Executor> {
  const executor = await createExecutor({ root, logDir: false, logger: quiet, watch });
  opened.push(executor);
  return executor;
}

/** A hand-written tools.json: tabs, CRLF, compact arrays and an unusual key order that must survive. */
const HAND_WRITTEN = [
  "{",
  '\t"tools": [',
  '\t\t{ "name": "first", "runtime": "shell", "script": "first.sh", "description": "First", "inputSchema": { "type": "object", "required": [] } },',
  "\t\t{",
  '\t\t\t"description": "Second", "name": "second", "runtime": "shell", "script": "first.sh",',
  '\t\t\t"inputSchema": { "type": "object" }',
  "\t\t}",
  "\t]",
  "}",
  "",
].join("\r\n");

describe("registry writes", () => {
  it("registers a tool with its script: live when the promise resolves, file layout kept", async () => {
    const project = createTempProject({ tools: HAND_WRITTEN });
    project.write("tools/first.sh", GREET);
    const executor = await open(project.root);
    const change = await executor.registerTool(toolEntry("greet", "shell", "greet.sh"), { script: GREET });
    expect(change).toMatchObject({ action: "create", tool: "greet", script: "tools/greet.sh" });
    const result = await executor.callTool("greet", {});
    expect(result).toMatchObject({ ok: true, value: { hello: "world" } });
    const text = readFileSync(project.path("tools.json"), "utf8");
    expect(text.startsWith(HAND_WRITTEN.slice(0, HAND_WRITTEN.lastIndexOf("\t\t}") + 3))).toBe(true);
    expect(text).toContain('\t\t},\r\n\t\t{\r\n\t\t\t"name": "greet",\r\n\t\t\t"description": "Test tool greet",');
    expect(text.endsWith("\t]\r\n}\r\n")).toBe(true);
    expect(JSON.parse(text).tools.map((tool: { name: string }) => tool.name)).toEqual(["first", "second", "greet"]);
  });

  it("updates (merge patch), replaces and removes, touching only that entry", async () => {
    const project = createTempProject({ tools: HAND_WRITTEN });
    project.write("tools/first.sh", GREET);
    const executor = await open(project.root);
    await executor.updateTool("first", { description: "First, patched", parallel: true });
    let text = readFileSync(project.path("tools.json"), "utf8");
    expect(text).toContain('"description": "Second", "name": "second"');
    expect(JSON.parse(text).tools[0]).toEqual({ name: "first", runtime: "shell", script: "first.sh", description: "First, patched", inputSchema: { type: "object", required: [] }, parallel: true });
    await executor.updateTool("first", { parallel: null });
    expect(JSON.parse(readFileSync(project.path("tools.json"), "utf8")).tools[0].parallel).toBeUndefined();
    await executor.replaceTool("second", toolEntry("second", "shell", "first.sh", { description: "Replaced" }));
    expect((await executor.listTools()).find((tool) => tool.name === "second")?.description).toBe("Replaced");
    await executor.removeTool("first");
    text = readFileSync(project.path("tools.json"), "utf8");
    expect(JSON.parse(text).tools.map((tool: { name: string }) => tool.name)).toEqual(["second"]);
    expect((await executor.callTool("first", {})).ok).toBe(false);
    await executor.removeTool("second");
    expect(readFileSync(project.path("tools.json"), "utf8")).toBe('{\r\n\t"tools": []\r\n}\r\n');
    await executor.registerTool(toolEntry("again", "shell", "first.sh"));
    expect(readFileSync(project.path("tools.json"), "utf8")).toContain('\t"tools": [\r\n\t\t{\r\n\t\t\t"name": "again"');
  });

  it("validates before writing: nothing changes on disk for an invalid entry", async () => {
    const project = createTempProject({ tools: { tools: [] } });
    const executor = await open(project.root);
    const before = readFileSync(project.path("tools.json"), "utf8");
    const cases: Array<[unknown, RegExp]> = [
      [{ ...toolEntry("bad name!", "shell", "x.sh") }, /tools\[0\]\.name: Expected a tool name/],
      [{ ...toolEntry("schema", "shell", "x.sh"), inputSchema: { type: "objekt" } }, /inputSchema\.type: Invalid JSON Schema/],
      [{ ...toolEntry("unknown_key", "shell", "x.sh"), colour: "red" }, /colour/],
      [{ ...toolEntry("escape", "shell", "../outside.sh") }, /may not escape the tools folder/],
      [{ ...toolEntry("reserved", "shell", "x.sh"), name: "code_execution" }, /reserved for a built-in tool/],
      ["not an object", /Expected a tool entry as a JSON object, got "not an object"/],
      [{ ...toolEntry("big", "shell", "x.sh"), timeoutMs: 10n }, /Expected a tool entry of plain JSON data: Do not know how to serialize a BigInt/],
    ];
    for (const [entry, message] of cases) {
      const error = await executor.registerTool(entry).then(() => undefined, (thrown: unknown) => thrown as { code: string; message: string });
      expect(error?.code).toBe("INVALID_INPUT");
      expect(error?.message).toMatch(message);
    }
    await expect(executor.registerTool(toolEntry("traversal", "shell", "../../etc/x.sh"), { script: "echo" })).rejects.toMatchObject({ code: "INVALID_INPUT", message: /escape the tools folder/ });
    expect(existsSync(path.join(project.root, "..", "etc"))).toBe(false);
    // An absolute path is named as given, not glued under tools/.
    const absolute = await executor.registerTool(toolEntry("absolute", "shell", "/etc/x.sh"), { script: "echo" }).then(() => undefined, (thrown: unknown) => thrown as { code: string; message: string });
    expect(absolute?.code).toBe("INVALID_INPUT");
    expect(absolute?.message).toMatch(/^Cannot write the script \/etc\/x\.sh: /);
    expect(readFileSync(project.path("tools.json"), "utf8")).toBe(before);
    await expect(executor.updateTool("missing", { description: "x" })).rejects.toMatchObject({ code: "TOOL_NOT_FOUND" });
  });

  it("answers CONFLICT naming the other source for a name a saved tool holds, which the registry cannot replace", async () => {
    const project = createTempProject({ tools: { tools: [], codeExecution: { enabled: true, poolSize: 1 } } });
    const executor = await open(project.root);
    await executor.saveTool({ name: "shared_name", description: "Saved", inputSchema: { type: "object" }, code: "1" });
    const before = readFileSync(project.path("tools.json"), "utf8");
    await expect(executor.registerTool(toolEntry("shared_name", "shell", "shared.sh"))).rejects.toMatchObject({
      code: "CONFLICT",
      message: 'A tool named "shared_name" already exists outside tools.json (an MCP, saved or built-in tool); choose another name',
    });
    expect(readFileSync(project.path("tools.json"), "utf8")).toBe(before);
  });

  it("refuses a script folder that links outside tools/", async () => {
    const project = createTempProject({ tools: { tools: [] } });
    const outside = mkdtempSync(path.join(os.tmpdir(), "toolexec-outside-"));
    symlinkSync(outside, project.path("tools/linked"));
    const executor = await open(project.root);
    await expect(executor.registerTool(toolEntry("linked", "shell", "linked/x.sh"), { script: "echo" })).rejects.toMatchObject({ code: "INVALID_INPUT", message: /links to .* outside it/ });
    expect(existsSync(path.join(outside, "x.sh"))).toBe(false);
  });

  it("answers CONFLICT for a hand edit between read and write, and the edit survives", async () => {
    const project = createTempProject({ tools: { tools: [toolEntry("first", "shell", "first.sh")] } });
    project.write("tools/first.sh", GREET);
    const executor = await open(project.root);
    const snapshot = await executor.readRegistry();
    const handEdited = JSON.stringify({ tools: [toolEntry("first", "shell", "first.sh", { description: "Edited by hand" })] }, null, 2);
    writeFileSync(project.path("tools.json"), handEdited);
    await expect(executor.updateTool("first", { description: "From the API" }, { ifMatch: snapshot.tools[0]!.etag })).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(executor.registerTool(toolEntry("other", "shell", "first.sh"), { ifMatch: snapshot.etag })).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(executor.removeTool("first", { ifMatch: snapshot.tools[0]!.etag })).rejects.toMatchObject({ code: "CONFLICT" });
    expect(readFileSync(project.path("tools.json"), "utf8")).toBe(handEdited);
    await expect(executor.registerTool(toolEntry("first", "shell", "first.sh"))).rejects.toMatchObject({ code: "CONFLICT", message: /already exists/ });
    const fresh = await executor.readRegistry();
    await executor.updateTool("first", { description: "From the API" }, { ifMatch: fresh.tools[0]!.etag });
    expect(JSON.parse(readFileSync(project.path("tools.json"), "utf8")).tools[0].description).toBe("From the API");
  });

  it("refuses to write over a tools.json broken by hand, naming the problem", async () => {
    const project = createTempProject({ tools: { tools: [] } });
    const executor = await open(project.root);
    writeFileSync(project.path("tools.json"), '{ "tools": [ }');
    await expect(executor.registerTool(toolEntry("x", "shell", "x.sh"))).rejects.toMatchObject({ code: "CONFIG_INVALID", message: /tools\.json on disk is not valid JSON/ });
    writeFileSync(project.path("tools.json"), '{ "tools": [], "colour": 1 }');
    await expect(executor.registerTool(toolEntry("x", "shell", "x.sh"))).rejects.toMatchObject({ code: "CONFIG_INVALID", message: /on disk is invalid; fix it before writing.*colour/s });
    expect(readFileSync(project.path("tools.json"), "utf8")).toBe('{ "tools": [], "colour": 1 }');
  });

  it("applies a write once: the watcher neither reloads nor emits it again", async () => {
    const project = createTempProject({ tools: { tools: [] } });
    let watcherSkipped!: () => void;
    const skipped = new Promise<void>((resolve) => (watcherSkipped = resolve));
    const logger = { ...quiet, debug: (message: string) => message.startsWith("Config change skipped") && watcherSkipped() };
    const executor = await createExecutor({ root: project.root, logDir: false, logger, watch: true });
    opened.push(executor);
    const events: Array<keyof ExecutorEvents> = [];
    executor.on("config:reloaded", () => events.push("config:reloaded"));
    executor.on("tools:changed", () => events.push("tools:changed"));
    await executor.registerTool(toolEntry("greet", "shell", "greet.sh"), { script: GREET });
    expect(events).toEqual(["tools:changed", "config:reloaded"]);
    // Whichever comes first: the watcher skipping the write (right), or reloading it again (wrong).
    await Promise.race([skipped, new Promise((resolve) => executor.on("config:reloaded", resolve))]);
    expect(events).toEqual(["tools:changed", "config:reloaded"]);
    const handEdit = new Promise<void>((resolve) => executor.on("config:reloaded", () => resolve()));
    const text = readFileSync(project.path("tools.json"), "utf8");
    writeFileSync(project.path("tools.json"), text.replace("Test tool greet", "Edited by hand"));
    await handEdit;
    expect((await executor.listTools()).find((tool) => tool.name === "greet")?.description).toBe("Edited by hand");
  });
});
