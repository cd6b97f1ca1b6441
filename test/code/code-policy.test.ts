/**
 * The run policy: the call cap (MAX_TOOL_CALLS_EXCEEDED, 0 unlimited), allowed servers
 * (SERVER_NOT_ALLOWED; [] none, absent all), ceilings a request may not exceed (INVALID_INPUT),
 * excluded tools, the bounded queue (QUEUE_FULL), and code execution switched off.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createExecutor } from "../../src/index.js";
import { nextEvent } from "../helpers/next-event.js";
import { openCodeExecutor, silentLogger, writeCodeProject, type CodeSetup } from "./code-test-helpers.js";
import { testToolsPlugin } from "./fixtures/test-tools-plugin.js";

let setup: CodeSetup;
beforeAll(async () => {
  setup = await openCodeExecutor({ plugins: [testToolsPlugin().plugin], codeExecution: { maxToolCalls: 5, allowedServers: ["local", "human"], excludeTools: ["fail"], maxTimeoutMs: 60_000 } });
});
afterAll(() => setup.close());

const run = (code: string, options?: Record<string, unknown>) => setup.executor.executeCode({ code, ...(options ? { options } : {}) });

describe("max_tool_calls", () => {
  it("returns MAX_TOOL_CALLS_EXCEEDED for the call over the cap, and the code carries on", async () => {
    const result = await run("const results = [];\nfor (let i = 0; i < 4; i++) results.push(call_tool('local', 'add', { a: i, b: 0 }));\nresults.map((r) => r.ok ? r.value : r.error)", { max_tool_calls: 3 });
    expect(result).toMatchObject({
      ok: true,
      value: [0, 1, 2, { code: "MAX_TOOL_CALLS_EXCEEDED", message: "This execution may make at most 3 tool calls; local.add was call 4" }],
    });
    expect(result.toolCalls.map((call) => call.errorCode ?? "ok")).toEqual(["ok", "ok", "ok", "MAX_TOOL_CALLS_EXCEEDED"]);
  });

  it("uses the configured cap by default, and refuses requests above it or unlimited", async () => {
    const result = await run("Array.from({ length: 6 }, () => call_tool('local', 'add', { a: 1, b: 1 }).ok)");
    expect(result).toMatchObject({ ok: true, value: [true, true, true, true, true, false] });
    expect(await run("1", { max_tool_calls: 6 })).toMatchObject({ ok: false, error: { code: "INVALID_INPUT", message: "options.max_tool_calls may not exceed the configured maximum of 5 (0, unlimited, is not allowed), got 6" } });
    expect(await run("1", { max_tool_calls: 0 })).toMatchObject({ ok: false, error: { code: "INVALID_INPUT" } });
  });
});

describe("allowed_servers", () => {
  it("SERVER_NOT_ALLOWED outside the list; [] allows none", async () => {
    expect(await run("call_tool('local', 'add', { a: 1, b: 2 })", { allowed_servers: ["human"] })).toMatchObject({
      ok: true,
      value: { ok: false, error: { code: "SERVER_NOT_ALLOWED", message: 'Server "local" is not allowed in this execution (allowed: human)' } },
    });
    const none = await run("await tools.local.add({ a: 1, b: 2 }).catch((error) => error.code)", { allowed_servers: [] });
    expect(none).toMatchObject({ ok: true, value: "SERVER_NOT_ALLOWED" });
  });

  it("may only narrow the configured servers", async () => {
    expect(await run("1", { allowed_servers: ["local", "github"] })).toMatchObject({
      ok: false,
      error: { code: "INVALID_INPUT", message: "options.allowed_servers may only narrow the configured servers (local, human); not allowed: github" },
    });
  });
});

describe("ceilings and exclusions", () => {
  it("refuses a timeout above the configured maximum", async () => {
    expect(await run("1", { timeout_ms: 60_001 })).toMatchObject({
      ok: false,
      error: { code: "INVALID_INPUT", message: "Expected options.timeout_ms to be a whole number of ms from 1 to 60000 (the configured maximum), got 60001" },
    });
  });

  it("checks the request's shape against the tool's input schema", async () => {
    const result = await setup.executor.executeCode({ code: "1", options: { timeout_ms: "soon" } } as never);
    expect(result).toMatchObject({ ok: false, error: { code: "INVALID_INPUT" }, executionId: expect.any(String), logs: [], toolCalls: [] });
  });

  it("hides excluded tools from code: not callable, not in tools, not found by search", async () => {
    const result = await run("[call_tool('local', 'fail', {}).error.code, 'fail' in tools.local, search_tools('fail').length, describe_tool('local.fail').startsWith('No tool')]");
    expect(result).toMatchObject({ ok: true, value: ["TOOL_NOT_FOUND", false, 0, true] });
  });

  it("code cannot call code_execution itself", async () => {
    expect(await run("call_tool('code_execution', { code: '1' }).error.code")).toMatchObject({ ok: true, value: "TOOL_NOT_FOUND" });
  });
});

describe("QUEUE_FULL", () => {
  let small: CodeSetup;
  afterEach(() => small?.close());

  it("runs wait in a bounded queue; past the bound they fail at once", async () => {
    small = await openCodeExecutor({ plugins: [testToolsPlugin().plugin], codeExecution: { poolSize: 1, maxQueue: 1 } });
    const waiting = nextEvent(small.executor, "tool:start", ({ tool }) => tool === "wait");
    const busy = small.executor.executeCode({ code: "await tools.local.wait({ ms: 600 })" });
    // The one runtime is taken once the run calls wait.
    await waiting;
    const queued = small.executor.executeCode({ code: "'queued'" });
    const refused = await small.executor.executeCode({ code: "'refused'" });
    expect(refused).toMatchObject({ ok: false, error: { code: "QUEUE_FULL", message: "Too many code executions waiting (limit 1); try again later" } });
    expect(await busy).toMatchObject({ ok: true, value: "waited" });
    expect(await queued).toMatchObject({ ok: true, value: "queued" });
  });
});

describe("disabled", () => {
  it("is off by default: not listed, and calls are refused with TOOL_NOT_FOUND saying how to enable it", async () => {
    const project = writeCodeProject();
    const executor = await createExecutor({ root: project.root, watch: false, logDir: false, logger: silentLogger });
    try {
      expect((await executor.listTools()).map((tool) => tool.name)).not.toContain("code_execution");
      const message =
        'Code execution is disabled: "code_execution" is offered only when enabled, with createExecutor({ codeExecution: { enabled: true } }) or "codeExecution": { "enabled": true } in tools.json';
      expect(await executor.callTool("code_execution", { code: "1" })).toMatchObject({ ok: false, error: { code: "TOOL_NOT_FOUND", message } });
      expect(await executor.executeCode({ code: "1" })).toMatchObject({ ok: false, error: { code: "TOOL_NOT_FOUND", message }, logs: [], toolCalls: [] });
    } finally {
      await executor.close();
      project.remove();
    }
  });
});

describe("stopping a run from outside", () => {
  it("CANCELLED when the caller's signal aborts; EXECUTOR_CLOSED when the executor closes under a run", async () => {
    const own = await openCodeExecutor({ codeExecution: { poolSize: 2 } });
    try {
      // Each run calls echo, then loops: once echo has ended, the run is certainly under way.
      const looping = () => nextEvent(own.executor, "tool:end", ({ tool, parentExecutionId }) => tool === "echo" && parentExecutionId !== undefined);
      const controller = new AbortController();
      const firstLooping = looping();
      const cancelled = own.executor.executeCode({ code: "call_tool('echo', {});\nwhile (true) {}" }, { signal: controller.signal });
      await firstLooping;
      controller.abort();
      expect(await cancelled).toMatchObject({ ok: false, error: { code: "CANCELLED" } });
      const secondLooping = looping();
      const running = own.executor.executeCode({ code: "console.log('started');\ncall_tool('echo', {});\nwhile (true) {}" });
      await secondLooping;
      await own.executor.close();
      expect(await running).toMatchObject({ ok: false, error: { code: "EXECUTOR_CLOSED" } });
    } finally {
      await own.close();
    }
  });
});

describe("max_tool_calls 0", () => {
  it("is unlimited when the configuration sets no cap", async () => {
    const own = await openCodeExecutor({ plugins: [testToolsPlugin().plugin], codeExecution: { poolSize: 1 } });
    try {
      const result = await own.executor.executeCode({ code: "Array.from({ length: 30 }, (_, i) => call_tool('local', 'add', { a: i, b: 0 }).ok).every(Boolean)", options: { max_tool_calls: 0 } });
      expect(result).toMatchObject({ ok: true, value: true });
      expect(result.toolCalls).toHaveLength(30);
    } finally {
      await own.close();
    }
  });
});
