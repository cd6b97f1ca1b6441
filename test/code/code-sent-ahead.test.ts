/**
 * Runs handed to a runtime ahead of its previous run's idle report (the pool of one, with runs
 * waiting): each gets its own answer, and one sent to a runtime that never reports idle (a
 * floating microtask loop of the previous run) runs again on a fresh runtime instead of failing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openCodeExecutor, type CodeSetup } from "./code-test-helpers.js";

let setup: CodeSetup;
beforeAll(async () => {
  setup = await openCodeExecutor({ codeExecution: { poolSize: 1, maxQueue: 100 } });
  await setup.executor.executeCode({ code: "0" });
});
afterAll(() => setup.close());

describe("runs sent ahead of the idle report", () => {
  it("answers each of many runs waiting on one runtime with its own value", async () => {
    const results = await Promise.all(Array.from({ length: 50 }, (_, index) => setup.executor.executeCode({ code: "input.n * 2", input: { n: index } })));
    expect(results.map((result) => (result.ok ? result.value : result.error.code))).toEqual(Array.from({ length: 50 }, (_, index) => index * 2));
  });

  it("runs the next run elsewhere when the runtime it was sent to never reports idle", async () => {
    const starving = setup.executor.executeCode({ code: "(async () => { for (;;) await null })();\n'answered'" });
    const next = setup.executor.executeCode({ code: "40 + 2", options: { timeout_ms: 30_000 } });
    expect(await starving).toMatchObject({ ok: true, value: "answered" });
    expect(await next).toMatchObject({ ok: true, value: 42 });
    expect(await setup.executor.executeCode({ code: "'still works'" })).toMatchObject({ ok: true, value: "still works" });
  });
});
