/**
 * Code mode leaves the host's promises alone: nothing it does on a run, a tool call from code or a
 * saved tool's call turns on Node's promise hooks (AsyncLocalStorage did, on the first tool call
 * from code, and from then on every promise of the host process paid for them).
 */
import { executionAsyncId } from "node:async_hooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openCodeExecutor, type CodeSetup } from "./code-test-helpers.js";

/** Without promise hooks, a promise continuation runs with no async id of its own (0). */
const promiseIdAfterAwait = async () => {
  await null;
  return executionAsyncId();
};

let setup: CodeSetup;
beforeAll(async () => {
  setup = await openCodeExecutor({ codeExecution: { enabled: true, poolSize: 1, allowSavingTools: true } });
});
afterAll(() => setup?.close());

describe("the host's promises", () => {
  it("get no hooks from code runs, their tool calls or saved tools", async () => {
    expect(await promiseIdAfterAwait()).toBe(0);
    const { executor } = setup;
    expect(await executor.executeCode({ code: "const r = call_tool('local', 'echo', { n: 1 });\nr.ok" })).toMatchObject({ ok: true, value: true });
    await executor.saveTool({ name: "echo_twice", description: "Echoes twice", inputSchema: { type: "object" }, code: "call_tool('local', 'echo', { n: 1 });\n(await tools.local.echo({ n: 2 })).echo.n" });
    expect(await executor.callTool("echo_twice", {})).toMatchObject({ ok: true, value: 2 });
    expect(await promiseIdAfterAwait()).toBe(0);
  });
});
