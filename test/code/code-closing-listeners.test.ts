/**
 * Every run under way or waiting in a runtime watches code mode's closing signal. It does so
 * through one listener per signal (src/core/schedule/shared-abort-watch.ts): eleven runs at once, one listener each,
 * made Node print "Possible EventTarget memory leak detected" on the user's stderr, and a pool of
 * 6 reaches eleven with runs sent ahead. Closing still stops every one of them.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { ExecutorPlugin } from "../../src/index.js";
import { deferred } from "../helpers/deferred.js";
import { openCodeExecutor, type CodeSetup } from "./code-test-helpers.js";

const RUNS = 11;

/** An in-process `wait` tool whose calls all answer when `release` is called; `arrived` resolves at the RUNS-th call. */
function gatePlugin() {
  let calls = 0;
  const released = deferred();
  const arrived = deferred();
  const plugin: ExecutorPlugin = {
    name: "gate",
    async start() {
      return {
        listTools: () => [{ name: "wait", description: "Answers once the test releases it.", inputSchema: { type: "object" }, parallel: true }],
        callTool: async () => {
          if (++calls === RUNS) arrived.resolve();
          await released.promise;
          return { ok: true, value: "released" };
        },
        close: async () => {},
      };
    },
  };
  return { plugin, arrived: arrived.promise, release: () => released.resolve() };
}

let setup: CodeSetup | undefined;
afterEach(async () => {
  await setup?.close();
  setup = undefined;
});

describe("code mode's closing signal", () => {
  it("prints no listener-leak warning with eleven runs under way at once", { timeout: 60_000 }, async () => {
    const gate = gatePlugin();
    setup = await openCodeExecutor({ plugins: [gate.plugin], maxConcurrency: 64, codeExecution: { poolSize: RUNS, maxQueue: 50 } });
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
    process.on("warning", onWarning);
    try {
      const runs = Array.from({ length: RUNS }, () => setup!.executor.executeCode({ code: "call_tool('local', 'wait', {}).value" }));
      await gate.arrived;
      gate.release();
      const results = await Promise.all(runs);
      expect(results.map((result) => result.ok && result.value)).toEqual(Array.from({ length: RUNS }, () => "released"));
      // Node emits a warning on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((warning) => warning.includes("MaxListenersExceeded"))).toEqual([]);
    } finally {
      process.off("warning", onWarning);
    }
  });

  it("stops every run under way when the executor closes", { timeout: 60_000 }, async () => {
    const gate = gatePlugin();
    setup = await openCodeExecutor({ plugins: [gate.plugin], maxConcurrency: 64, codeExecution: { poolSize: RUNS, maxQueue: 50 } });
    const runs = Array.from({ length: RUNS }, () => setup!.executor.executeCode({ code: "call_tool('local', 'wait', {}).value" }));
    await gate.arrived;
    const closing = setup.close();
    setup = undefined;
    const results = await Promise.all(runs);
    await closing;
    for (const result of results) expect(result).toMatchObject({ ok: false, error: { code: "EXECUTOR_CLOSED" } });
  });
});
