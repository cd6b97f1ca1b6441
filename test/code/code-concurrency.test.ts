/**
 * Concurrency and isolation with real runtimes: a full pool runs all at once, a queue five
 * times the pool loses nothing, non-parallel tools stay one at a time under fan-out, and nothing
 * one run does is visible to the next run on the same runtime.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openCodeExecutor, type CodeSetup } from "./code-test-helpers.js";
import { testToolsPlugin, type TestToolsState } from "./fixtures/test-tools-plugin.js";

describe("a pool of 10", () => {
  let setup: CodeSetup;
  beforeAll(async () => {
    // maxConcurrency above 10: the barrier calls themselves must not wait for the executor's call slots (default 8).
    setup = await openCodeExecutor({ maxConcurrency: 16, plugins: [testToolsPlugin().plugin], codeExecution: { poolSize: 10, maxQueue: 100 } });
  });
  afterAll(() => setup.close());

  it("runs 10 concurrent executions at once: each waits at a barrier only all 10 together can pass", async () => {
    const runs = Array.from({ length: 10 }, (_, index) =>
      setup.executor.executeCode({ code: "const arrived = await tools.local.barrier({ key: 'ten', count: 10 });\n[input, arrived >= 10]", input: index }),
    );
    const results = await Promise.all(runs);
    expect(results.map((result) => (result.ok ? result.value : result.error))).toEqual(Array.from({ length: 10 }, (_, index) => [index, true]));
  }, 30_000);

  it("finishes 50 concurrent executions, each with its own answer, none lost", async () => {
    const runs = Array.from({ length: 50 }, (_, index) =>
      setup.executor.executeCode({ code: "const sum = call_tool('local', 'add', { a: input, b: input }).value;\n({ index: input, sum })", input: index }),
    );
    const results = await Promise.all(runs);
    expect(results.map((result) => (result.ok ? result.value : result.error))).toEqual(Array.from({ length: 50 }, (_, index) => ({ index, sum: 2 * index })));
    expect(new Set(results.map((result) => result.executionId)).size).toBe(50);
  }, 30_000);
});

describe("tools under fan-out", () => {
  let setup: CodeSetup;
  let state: TestToolsState;
  beforeAll(async () => {
    const tools = testToolsPlugin();
    state = tools.state;
    setup = await openCodeExecutor({ plugins: [tools.plugin], codeExecution: { poolSize: 1 } });
  });
  afterAll(() => setup.close());

  it("runs parallel tools concurrently and non-parallel ones one at a time, through the executor's pipeline", async () => {
    const parallel = await setup.executor.executeCode({ code: "await Promise.all([1, 2, 3].map(() => tools.local.barrier({ key: 'fan-out', count: 3 })))" });
    expect(parallel).toMatchObject({ ok: true, value: [3, 3, 3] });
    const serial = await setup.executor.executeCode({ code: "await call_tools(Array.from({ length: 5 }, () => ({ server: 'local', tool: 'track', args: { ms: 30 } })))" });
    expect(serial.ok).toBe(true);
    expect(state.maxConcurrentTrack).toBe(1);
    expect(serial.toolCalls).toHaveLength(5);
  });

  it("isolates runs on the same runtime: globals, declarations and attempted intrinsic changes do not carry over", async () => {
    const first = await setup.executor.executeCode({
      code: `
var declared = 1;
globalThis.leaked = "yes";
const attempts = [];
for (const attempt of [() => { Array.prototype.sum = () => 1 }, () => { Object.prototype.polluted = 1 }, () => { JSON.parse = () => 1 }, () => { Math.max = () => 0 }]) {
  try { attempt(); attempts.push("changed") } catch (error) { attempts.push(error.constructor.name) }
}
attempts`,
    });
    expect(first).toMatchObject({ ok: true, value: ["TypeError", "TypeError", "TypeError", "TypeError"] });
    const second = await setup.executor.executeCode({
      code: "[typeof declared, typeof globalThis.leaked, typeof [].sum, ({}).polluted, JSON.parse('2'), Math.max(1, 3)]",
    });
    expect(second).toMatchObject({ ok: true, value: ["undefined", "undefined", "undefined", null, 2, 3] });
  });
});
