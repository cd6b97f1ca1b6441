/**
 * Observability of code runs: one execution-log line per run (id, the first 500 characters of
 * code, input size, each tool call, outcome, timings), its tool calls' own lines carrying its id
 * as parentExecutionId, and the `code:start` / `code:end` events.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ExecutorEvents } from "../../src/index.js";
import { readLogRecords } from "../log/log-test-helpers.js";
import { openCodeExecutor, type CodeSetup } from "./code-test-helpers.js";

let setup: CodeSetup;
const events: Array<{ name: string; payload: unknown }> = [];
beforeAll(async () => {
  setup = await openCodeExecutor({ logDir: ".toolexec/logs" });
  for (const name of ["code:start", "code:end", "tool:start"] as const) {
    setup.executor.on(name, (payload: ExecutorEvents[typeof name]) => events.push({ name, payload }));
  }
});
afterAll(() => setup.close());

describe("code runs in the execution log and events", () => {
  it("logs one line per run with a code excerpt, input size, tool calls, outcome and timings; sub-calls point back to it", async () => {
    const padding = `// ${"x".repeat(600)}\n`;
    const code = `${padding}const r = await tools.local.echo({ n: input.n });\nr.echo.n`;
    const ok = await setup.executor.executeCode({ code, input: { n: 7 } });
    const failed = await setup.executor.executeCode({ code: "call_tool('local', 'echo', { n: 1 });\nnull.x" });
    await setup.executor.close();
    const records = readLogRecords(path.join(setup.project.root, ".toolexec/logs"));

    const line = records.find((record) => record.executionId === ok.executionId)!;
    expect(line).toMatchObject({
      tool: "code_execution",
      plugin: "code",
      ok: true,
      codeLength: code.length,
      inputBytes: 7,
      value: 7,
      toolCalls: [{ server: "local", tool: "echo", durationMs: expect.any(Number), ok: true }],
      toolCallCount: 1,
      logLines: 0,
      durationMs: expect.any(Number),
      queueMs: expect.any(Number),
      runMs: expect.any(Number),
      timeoutMs: 120_000,
    });
    expect(line.code).toHaveLength(500);
    expect(line).not.toHaveProperty("arguments");

    const subCall = records.find((record) => record.parentExecutionId === ok.executionId)!;
    expect(subCall).toMatchObject({ tool: "echo", plugin: "script", ok: true, arguments: { n: 7 } });

    const failure = records.find((record) => record.executionId === failed.executionId)!;
    expect(failure).toMatchObject({ ok: false, error: { code: "RUNTIME_ERROR", message: expect.stringContaining("TypeError"), stack: expect.stringContaining("code.js:2:6") }, toolCallCount: 1 });
    expect(records.filter((record) => record.parentExecutionId === failed.executionId)).toHaveLength(1);
  });

  it("emits code:start and code:end around each run, with the result", () => {
    const starts = events.filter((event) => event.name === "code:start");
    const ends = events.filter((event) => event.name === "code:end");
    expect(starts).toHaveLength(2);
    expect(ends).toHaveLength(2);
    expect(starts[0]!.payload).toMatchObject({ executionId: expect.any(String), code: expect.stringMatching(/^\/\/ x/), inputBytes: 7, timeoutMs: 120_000 });
    expect(ends[0]!.payload).toMatchObject({ executionId: (starts[0]!.payload as { executionId: string }).executionId, ok: true, value: 7, toolCalls: [expect.objectContaining({ tool: "echo" })] });
    expect(ends[1]!.payload).toMatchObject({ ok: false, error: { code: "RUNTIME_ERROR" } });
    const subCallStart = events.find((event) => event.name === "tool:start" && (event.payload as { tool: string }).tool === "echo");
    expect(subCallStart?.payload).toMatchObject({ parentExecutionId: (starts[0]!.payload as { executionId: string }).executionId });
  });
});
