/** Saved composite tools end to end, with real files, real runtimes, the real CLI and the real watcher. */
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createExecutor, type Executor, type ToolResult } from "../../src/index.js";
import { OUTPUT_META_KEY, serveHttp } from "../../src/serve.js";
import { runCli } from "../cli/run-cli.js";
import { silentLogger, writeCodeProject, type CodeProject } from "../code/code-test-helpers.js";
import { nextEvent } from "../helpers/next-event.js";

const DOUBLE = {
  name: "double_echo",
  description: "Echo a number through the echo tool and double it.",
  inputSchema: { type: "object", properties: { n: { type: "number" } }, required: ["n"], additionalProperties: false },
  outputSchema: { type: "number" },
  code: 'console.log("doubling", input.n);\nconst echoed = await tools.local.echo({ n: input.n });\nechoed.echo.n * 2',
};

const codeOf = (result: ToolResult) => (result.ok ? undefined : result.error.code);
const messageOf = (result: ToolResult) => (result.ok ? "" : result.error.message);

let project: CodeProject;
let executor: Executor;
const savedFile = (name: string) => path.join(project.root, ".toolexec", "saved-tools", `${name}.js`);
const savedFiles = () => (existsSync(path.dirname(savedFile("x"))) ? readdirSync(path.dirname(savedFile("x"))) : []);

beforeAll(async () => {
  project = writeCodeProject({ codeExecution: { enabled: true, poolSize: 2 } });
  executor = await createExecutor({ root: project.root, logger: silentLogger, watch: true });
});
afterAll(async () => {
  await executor?.close();
  project?.remove();
});

describe("saved tools", () => {
  it("save → list → call (host, CLI, another code run) → show → delete", async () => {
    const saved = await executor.callTool("save_tool", DOUBLE);
    expect(saved).toMatchObject({ ok: true, value: { saved: "double_echo", file: ".toolexec/saved-tools/double_echo.js" } });
    const text = readFileSync(savedFile("double_echo"), "utf8");
    expect(text).toContain('  "name": "double_echo",');
    expect(text.endsWith(`*/\n${DOUBLE.code}\n`)).toBe(true);

    const listed = await executor.callTool("list_saved_tools", {});
    expect(listed).toMatchObject({ ok: true, value: { tools: [{ name: "double_echo", description: DOUBLE.description, inputSchema: DOUBLE.inputSchema, created: expect.any(String), modified: expect.any(String) }] } });
    expect((await executor.listTools()).map((tool) => tool.name)).toContain("double_echo");

    const ended = nextEvent(executor, "code:end");
    const called = await executor.callTool("double_echo", { n: 21 });
    expect(called).toMatchObject({ ok: true, value: 42 });
    // The run's audit reaches the caller with the call's own executionId.
    expect(await ended).toMatchObject({ ok: true, executionId: called.executionId, logs: ["doubling 21"], toolCalls: [{ server: "local", tool: "echo", ok: true }] });
    // And on the result itself: `content` is the run's output, `value` stays the tool's value.
    expect(called).toMatchObject({
      ok: true,
      value: 42,
      content: { ok: true, value: 42, execution_id: called.executionId, logs: ["doubling 21"], tool_calls: [{ server: "local", tool: "echo", ok: true, duration_ms: expect.any(Number) }], duration_ms: expect.any(Number) },
    });
    const badArguments = await executor.callTool("double_echo", { n: "x" });
    expect([codeOf(badArguments), messageOf(badArguments)]).toEqual(["INVALID_INPUT", 'Invalid arguments for "double_echo": n: must be number']);

    const cli = await runCli(["tools", "call", "double_echo", "--args", '{"n": 5}', "--json"], { cwd: project.root });
    expect(cli.stderr).toBe("");
    expect(JSON.parse(cli.stdout)).toMatchObject({ ok: true, value: 10, content: { value: 10, logs: ["doubling 5"] } });

    const fromCode = await executor.executeCode({ code: "(await tools.local.double_echo({ n: 2 })) + 1" });
    expect(fromCode).toMatchObject({ ok: true, value: 5 });

    const shown = await executor.callTool("show_saved_tool", { name: "double_echo" });
    expect(shown).toMatchObject({ ok: true, value: { ...DOUBLE, created: expect.any(String), modified: expect.any(String) } });

    expect(await executor.callTool("delete_saved_tool", { name: "double_echo" })).toMatchObject({ ok: true, value: { deleted: "double_echo" } });
    expect(existsSync(savedFile("double_echo"))).toBe(false);
    expect(codeOf(await executor.callTool("double_echo", { n: 1 }))).toBe("TOOL_NOT_FOUND");
    expect(codeOf(await executor.callTool("delete_saved_tool", { name: "double_echo" }))).toBe("TOOL_NOT_FOUND");
  });

  it("is listed and called by an MCP client when served, which gets the run's audit in _meta", async () => {
    await executor.saveTool({ ...DOUBLE, name: "served_double" });
    const serving = await serveHttp(executor);
    const client = new Client({ name: "saved-tools-test", version: "1.0.0" });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(serving.url)));
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("served_double");
      const result = await client.callTool({ name: "served_double", arguments: { n: 8 } });
      expect(result.isError).toBeFalsy();
      expect(result.content).toEqual([{ type: "text", text: "16" }]);
      expect(result._meta?.[OUTPUT_META_KEY]).toMatchObject({ ok: true, value: 16, logs: ["doubling 8"], tool_calls: [{ server: "local", tool: "echo", ok: true }] });
    } finally {
      await client.close();
      await serving.close();
      await executor.deleteSavedTool("served_double");
    }
  });

  it("writes the run's audit to the execution log", async () => {
    const logged = writeCodeProject({ codeExecution: { enabled: true, poolSize: 1 } });
    try {
      const host = await createExecutor({ root: logged.root, logger: silentLogger, watch: false });
      await host.saveTool({ ...DOUBLE, name: "logged_double" });
      const called = await host.callTool("logged_double", { n: 4 });
      await host.close();
      const lines = readFileSync(path.join(logged.root, ".toolexec", "logs", "executions.jsonl"), "utf8").trim().split("\n").map((line) => JSON.parse(line));
      const own = lines.find((line) => line.executionId === called.executionId);
      expect(own).toMatchObject({ tool: "logged_double", arguments: { n: 4 }, ok: true, value: 8, logs: ["doubling 4"], toolCalls: [{ server: "local", tool: "echo", ok: true }], toolCallCount: 1 });
      expect(lines.find((line) => line.parentExecutionId === called.executionId)).toMatchObject({ tool: "echo", arguments: { n: 4 }, value: { echo: { n: 4 } } });
    } finally {
      logged.remove();
    }
  });

  it("rejects every kind of invalid save precisely, writing nothing", async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...DOUBLE, name: "bad name" }, 'name: Expected 1-128 characters from A-Z a-z 0-9 _ - . without "__", got "bad name"'],
      [{ ...DOUBLE, name: "a__b" }, "name: Expected 1-128 characters"],
      [{ ...DOUBLE, name: ".hidden" }, 'name: Expected a name that does not start with "."'],
      [{ ...DOUBLE, name: "echo" }, 'name: a tool named "echo" exists; choose another name'],
      [{ ...DOUBLE, name: "code_execution" }, 'name: "code_execution" is reserved for a built-in tool'],
      [{ ...DOUBLE, description: "" }, "description: Expected a non-empty string"],
      [{ ...DOUBLE, inputSchema: { type: "array" } }, 'inputSchema.type: Expected "object" (arguments are always an object), got "array"'],
      [{ ...DOUBLE, inputSchema: { type: "object", properties: { n: { type: "numbr" } } } }, "inputSchema.properties.n.type: Invalid JSON Schema"],
      [{ ...DOUBLE, inputSchema: { type: "object", properties: { n: { type: "string", pattern: "(a)\\1" } } } }, "inputSchema.properties.n.pattern"],
      [{ ...DOUBLE, outputSchema: { type: 5 } }, "outputSchema.type: Invalid JSON Schema"],
      [{ ...DOUBLE, code: "const x = ;\n" }, "code: Unexpected token at line 1, column 11"],
      [{ ...DOUBLE, code: "1\nimport fs from 'fs'" }, "code: import declarations are not available"],
      [{ ...DOUBLE, code: "x".repeat(300 * 1024) }, "code: 307200 bytes, over the limit of 262144 (codeExecution.maxCodeBytes)"],
      [{ ...DOUBLE, colour: "red" }, 'unknown property "colour"'],
      [{ ...DOUBLE, description: "x".repeat(70 * 1024) }, "description and schemas: 71867 bytes as JSON, over the limit of 65536"],
      [{ ...DOUBLE, code: "  \n" }, 'code: Expected a non-empty string of JavaScript, got "  \\n"'],
      [{ name: "no_schema", description: "d", code: "1" }, 'arguments: missing required property "inputSchema"'],
    ];
    const before = savedFiles();
    for (const [definition, message] of cases) {
      const result = await executor.callTool("save_tool", definition);
      expect(result.ok, JSON.stringify(definition).slice(0, 80)).toBe(false);
      expect(codeOf(result)).toBe("INVALID_INPUT");
      expect(messageOf(result)).toContain(message);
    }
    await expect(executor.saveTool({ ...DOUBLE, name: "bad name" })).rejects.toMatchObject({ code: "INVALID_INPUT", message: /^Cannot save the tool: name: Expected/ });
    expect(savedFiles()).toEqual(before);
    await executor.saveTool({ ...DOUBLE, name: "once" });
    expect(messageOf(await executor.callTool("save_tool", { ...DOUBLE, name: "once" }))).toContain('a saved tool named "once" exists; pass overwrite: true');
    expect(await executor.callTool("save_tool", { ...DOUBLE, name: "once", description: "Second version", overwrite: true })).toMatchObject({ ok: true });
    expect((await executor.showSavedTool("once"))?.description).toBe("Second version");
    await executor.deleteSavedTool("once");
  });

  it("stops saved tools that call each other in a loop", async () => {
    await executor.saveTool({ name: "ping", description: "Calls pong", inputSchema: { type: "object" }, code: "const r = await call_tool('local', 'pong', {});\nif (!r.ok) throw new Error(r.error.code + ': ' + r.error.message);\nr.value" });
    await executor.saveTool({ name: "pong", description: "Calls ping", inputSchema: { type: "object" }, code: "const r = await call_tool('local', 'ping', {});\nif (!r.ok) throw new Error(r.error.code + ': ' + r.error.message);\nr.value" });
    const started = Date.now();
    const result = await executor.callTool("ping", {});
    expect(result.ok).toBe(false);
    expect(messageOf(result)).toContain("RECURSION_LIMIT: Saved tool \"ping\" was not run: 8 saved tools already run inside each other (ping → pong → ping → pong → ping → pong → ping → pong → ping), the limit is 8");
    expect(Date.now() - started).toBeLessThan(20_000);
    await executor.deleteSavedTool("ping");
    await executor.deleteSavedTool("pong");
  });

  it("picks up hand edits and deletions of the files", async () => {
    await executor.saveTool({ ...DOUBLE, name: "edited" });
    const changed = nextEvent(executor, "tools:changed", (payload) => payload.changed.includes("edited"));
    // A hand edit of the description and the code: the registry hears the first, calls run the second.
    writeFileSync(savedFile("edited"), readFileSync(savedFile("edited"), "utf8").replace("and double it", "and triple it").replace("echoed.echo.n * 2", "echoed.echo.n * 3"));
    await changed;
    expect(await executor.callTool("edited", { n: 2 })).toMatchObject({ ok: true, value: 6 });
    const removed = nextEvent(executor, "tools:changed", (payload) => payload.removed.includes("edited"));
    rmSync(savedFile("edited"));
    await removed;
    expect(codeOf(await executor.callTool("edited", { n: 2 }))).toBe("TOOL_NOT_FOUND");
  });
});

describe("a file broken by hand", () => {
  it("keeps the last good version running and warns, naming the file and the problem", async () => {
    const broken = writeCodeProject({ codeExecution: { enabled: true, poolSize: 1 } });
    const warnings: string[] = [];
    try {
      const host = await createExecutor({ root: broken.root, logger: { ...silentLogger, warn: (message: string) => warnings.push(message) }, watch: true, logDir: false });
      try {
        await host.saveTool({ ...DOUBLE, name: "fragile" });
        const file = path.join(broken.root, ".toolexec", "saved-tools", "fragile.js");
        writeFileSync(file, readFileSync(file, "utf8").replace("echoed.echo.n * 2", "echoed.echo.n *"));
        await vi.waitFor(() => expect(warnings.find((message) => message.includes("fragile.js"))).toContain("code: Unexpected token at line 3"), { timeout: 10_000, interval: 20 });
        expect(await host.callTool("fragile", { n: 2 })).toMatchObject({ ok: true, value: 4 });
      } finally {
        await host.close();
      }
    } finally {
      broken.remove();
    }
  });
});

describe("limits", () => {
  /** An executor on a fresh code project with `codeExecution` limits, closed and removed after `use`. */
  async function withLimits(limits: Record<string, unknown>, use: (host: Awaited<ReturnType<typeof createExecutor>>) => Promise<void>) {
    const limited = writeCodeProject({ codeExecution: { enabled: true, poolSize: 1, ...limits } });
    try {
      const host = await createExecutor({ root: limited.root, logger: silentLogger, watch: false, logDir: false });
      try {
        await use(host);
      } finally {
        await host.close();
      }
    } finally {
      limited.remove();
    }
  }

  // Two executors: after the deadline's kill a fresh runtime starts, which can take longer than a
  // short deadline on a loaded machine; the tool-call cap is checked under the default deadline.
  it("runs a saved tool under code mode's deadline", async () => {
    await withLimits({ timeoutMs: 500 }, async (host) => {
      await host.saveTool({ name: "spin", description: "Never ends", inputSchema: { type: "object" }, code: "while (true) {}" });
      expect(codeOf(await host.callTool("spin", {}))).toBe("TIMEOUT");
    });
  });

  it("runs a saved tool under code mode's tool-call cap", async () => {
    await withLimits({ maxToolCalls: 1 }, async (host) => {
      await host.saveTool({ name: "twice", description: "Two tool calls", inputSchema: { type: "object" }, code: "await call_tool('local', 'echo', { n: 1 });\nconst second = await call_tool('local', 'echo', { n: 2 });\nsecond.ok ? 'no cap' : second.error.code" });
      expect(await host.callTool("twice", {})).toMatchObject({ ok: true, value: "MAX_TOOL_CALLS_EXCEEDED" });
    });
  });
});

describe("saving switched off", () => {
  it("runs existing saved tools but offers no save_tool or delete_saved_tool", async () => {
    const other = writeCodeProject({ codeExecution: { enabled: true, poolSize: 1, allowSavingTools: false } });
    try {
      const host = await createExecutor({ root: other.root, logger: silentLogger, watch: false, logDir: false });
      try {
        await host.saveTool({ ...DOUBLE, name: "host_saved" });
        const names = (await host.listTools()).map((tool) => tool.name);
        expect(names).toEqual(expect.arrayContaining(["host_saved", "list_saved_tools", "show_saved_tool"]));
        expect(names).not.toContain("save_tool");
        expect(names).not.toContain("delete_saved_tool");
        expect(codeOf(await host.callTool("save_tool", { ...DOUBLE, name: "model_saved" }))).toBe("TOOL_NOT_FOUND");
        expect(await host.callTool("host_saved", { n: 1 })).toMatchObject({ ok: true, value: 2 });
        // One runtime in the pool, held by this run while it calls the saved tool: the saved tool's run borrows one.
        expect(await host.executeCode({ code: "(await tools.local.host_saved({ n: 5 })) + 1" })).toMatchObject({ ok: true, value: 11 });
      } finally {
        await host.close();
      }
    } finally {
      other.remove();
    }
  });

  it("needs code execution for the library API", async () => {
    const other = writeCodeProject({});
    try {
      const host = await createExecutor({ root: other.root, logger: silentLogger, watch: false, logDir: false });
      await expect(host.saveTool(DOUBLE)).rejects.toMatchObject({ code: "TOOL_NOT_FOUND", message: /Saved tools need code execution/ });
      await host.close();
    } finally {
      other.remove();
    }
  });
});
