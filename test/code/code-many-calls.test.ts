/**
 * 10,000 concurrent `call_tool`s from one code execution: every call shares the execution's abort
 * signal. The pipeline ties them all to it with one listener that fans out, so the listener list
 * does not grow with the calls; the run's signal keeps Node's listener limit (it used to be lifted,
 * which hid a per-call listener), so a leak shows as MaxListenersExceededWarning here.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openCodeExecutor, type CodeSetup } from "./code-test-helpers.js";
import { testToolsPlugin } from "./fixtures/test-tools-plugin.js";

const CALLS = 10_000;

let setup: CodeSetup;
beforeAll(async () => {
  setup = await openCodeExecutor({ plugins: [testToolsPlugin().plugin], maxQueue: CALLS, codeExecution: { poolSize: 1, timeoutMs: 240_000, maxResultBytes: 1024 * 1024 } });
}, 60_000);
afterAll(() => setup?.close());

describe("10,000 concurrent call_tools from one execution", () => {
  it("all answer, with no MaxListenersExceededWarning", async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on("warning", onWarning);
    try {
      const code = `const calls = []; for (let i = 0; i < ${CALLS}; i++) calls.push(tools.local.add({ a: i, b: 1 })); const sums = await Promise.all(calls); return sums.reduce((total, sum, i) => total + (sum === i + 1 ? 1 : 0), 0);`;
      const result = await setup.executor.executeCode({ code, options: { timeout_ms: 240_000, max_tool_calls: 0 } });
      expect(result.ok ? result : JSON.stringify(result).slice(0, 400)).toMatchObject({ ok: true, value: CALLS });
      // Warnings are emitted on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.map((warning) => `${warning.name}: ${warning.message}`)).toEqual([]);
    } finally {
      process.off("warning", onWarning);
    }
  }, 300_000);
});
