/**
 * A code run learns of its call's cancellation from the pipeline's running call, not from an
 * AbortController made for every run: a run that is never cancelled makes none, and a cancel still
 * stops a run under way or one waiting for a runtime.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { nextEvent } from "../helpers/next-event.js";
import { openCodeExecutor, type CodeSetup } from "./code-test-helpers.js";

let setup: CodeSetup;
beforeAll(async () => {
  setup = await openCodeExecutor({ codeExecution: { poolSize: 1, maxQueue: 10, maxTimeoutMs: 300_000 } });
  await setup.executor.executeCode({ code: "0" });
});
afterAll(() => setup.close());

/** Counts the AbortControllers made while it is installed (the pipeline makes its calls' with the global). */
const Original = globalThis.AbortController;
let made = 0;
class CountedAbortController extends Original {
  constructor() {
    super();
    made++;
  }
}
afterEach(() => {
  globalThis.AbortController = Original;
});

describe("a code run's cancellation", () => {
  it("makes no AbortController for a run that is never cancelled", async () => {
    made = 0;
    globalThis.AbortController = CountedAbortController;
    for (let index = 0; index < 20; index++) expect(await setup.executor.executeCode({ code: "1 + 1" })).toMatchObject({ ok: true, value: 2 });
    globalThis.AbortController = Original;
    expect(made).toBe(0);
  });

  it("makes none for runs that wait for the runtime either", async () => {
    made = 0;
    globalThis.AbortController = CountedAbortController;
    // One runtime: nine of these wait in the pool's queue.
    const results = await Promise.all(Array.from({ length: 10 }, (_, index) => setup.executor.executeCode({ code: "input.n", input: { n: index } })));
    globalThis.AbortController = Original;
    expect(results.map((result) => result.ok && result.value)).toEqual(Array.from({ length: 10 }, (_, index) => index));
    expect(made).toBe(0);
  });

  it("stops a run under way, and one waiting for the runtime, when their callers cancel", async () => {
    const looping = nextEvent(setup.executor, "tool:end", ({ tool, parentExecutionId }) => tool === "echo" && parentExecutionId !== undefined);
    const running = new AbortController();
    const waiting = new AbortController();
    // Its deadline is past the test's: only the cancel can stop it, and `code:end` comes once the runtime is killed.
    const first = setup.executor.executeCode({ code: "call_tool('echo', {});\nwhile (true) {}", options: { timeout_ms: 300_000 } }, { signal: running.signal });
    await looping;
    // The pool has one runtime, and it loops: this run waits in the queue.
    const second = setup.executor.executeCode({ code: "'never'" }, { signal: waiting.signal });
    waiting.abort();
    expect(await second).toMatchObject({ ok: false, error: { code: "CANCELLED" } });
    const stopped = nextEvent(setup.executor, "code:end", (result) => !result.ok);
    running.abort();
    expect(await first).toMatchObject({ ok: false, error: { code: "CANCELLED" } });
    expect(await stopped).toMatchObject({ ok: false, error: { code: "CANCELLED" } });
    expect(await setup.executor.executeCode({ code: "'still works'" })).toMatchObject({ ok: true, value: "still works" });
  });

  it("answers CANCELLED without running code when the caller cancelled before the call", async () => {
    const cancelled = new AbortController();
    cancelled.abort();
    expect(await setup.executor.executeCode({ code: "'ran'" }, { signal: cancelled.signal })).toMatchObject({ ok: false, error: { code: "CANCELLED" } });
  });
});
