/**
 * A code run learns of its call's cancellation from the pipeline's running call, not from an
 * AbortController made for every run: a run that is never cancelled makes none, and a cancel still
 * stops a run under way or one waiting for a runtime. Its tool calls are tied to it by a call group,
 * not by an AbortController either: they are still cancelled when the run ends.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ExecutorPlugin } from "../../src/index.js";
import { nextEvent } from "../helpers/next-event.js";
import { openCodeExecutor, type CodeSetup } from "./code-test-helpers.js";

/** In-process tools that never read their call's signal: `noop` answers at once, `hang` never. */
const inProcess: ExecutorPlugin = {
  name: "in-process",
  async start() {
    return {
      listTools: () => ["noop", "hang"].map((name) => ({ name, description: `${name} tool`, inputSchema: { type: "object" }, parallel: true })),
      callTool: (call) => (call.name === "hang" ? new Promise(() => {}) : Promise.resolve({ ok: true, value: "done" })),
      close: async () => {},
    };
  },
};

let setup: CodeSetup;
beforeAll(async () => {
  setup = await openCodeExecutor({ plugins: [inProcess], codeExecution: { poolSize: 1, maxQueue: 10, maxTimeoutMs: 300_000 } });
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

  it("makes none for a run's tool calls either", async () => {
    made = 0;
    globalThis.AbortController = CountedAbortController;
    for (let index = 0; index < 10; index++) {
      expect(await setup.executor.executeCode({ code: "call_tool('noop', {});\ncall_tool('noop', {}).value" })).toMatchObject({ ok: true, value: "done" });
    }
    globalThis.AbortController = Original;
    expect(made).toBe(0);
  });

  it("cancels the run's tool calls still under way when the run ends", async () => {
    const hangEnded = nextEvent(setup.executor, "tool:end", ({ tool }) => tool === "hang");
    const result = await setup.executor.executeCode({ code: "tools.local.hang({});\n'not awaited'", options: { timeout_ms: 500 } });
    expect(result).toMatchObject({ ok: false, error: { code: "TIMEOUT" } });
    // Not at the call's own deadline (30 s, past the event's wait).
    expect(await hangEnded).toMatchObject({ ok: false, error: { code: "CANCELLED", message: '"hang" was cancelled by the caller' } });
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
