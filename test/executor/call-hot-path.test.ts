/**
 * What the pipeline skips on a call's hot path must not change what a tool sees: arguments handed
 * over (code mode's fresh parses) reach the tool as they are, any other arguments are snapshotted,
 * and a signal a plugin reads only after the call was aborted is already aborted, with its reason.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createExecutor, type Executor, type ExecutorPlugin } from "../../src/index.js";
import type { PluginInstance } from "../../src/plugin.js";
import { abortWatchOf } from "../../src/core/executor/call-abort-watch.js";
import { callWithArgumentsHandedOver } from "../../src/core/executor/handed-over-arguments.js";
import { deferred } from "../helpers/deferred.js";
import { createTempProject } from "../helpers/temp-project.js";

let executor: Executor | undefined;
afterEach(async () => {
  await executor?.close();
  executor = undefined;
});

async function executorWith(callTool: PluginInstance["callTool"]): Promise<Executor> {
  const plugin: ExecutorPlugin = {
    name: "host",
    async start() {
      return { listTools: () => [{ name: "probe", description: "Reports what it was given.", inputSchema: { type: "object" }, parallel: true }], callTool, close: async () => {} };
    },
  };
  const project = createTempProject({ tools: { tools: [] } });
  executor = await createExecutor({ root: project.root, watch: false, logDir: false, plugins: [plugin] });
  return executor;
}

describe("the call's hot path", () => {
  it("gives a tool handed-over arguments as they are, and snapshots all others", async () => {
    const seen: unknown[] = [];
    const target = await executorWith(async (call) => {
      seen.push(call.arguments);
      return { ok: true, value: null };
    });
    const handed = JSON.parse('{"n":1}') as Record<string, unknown>;
    await callWithArgumentsHandedOver(handed, () => target.callTool("probe", handed));
    expect(seen[0]).toBe(handed);

    const plain = { n: 2 };
    await target.callTool("probe", plain);
    expect(seen[1]).not.toBe(plain);
    expect(seen[1]).toEqual(plain);

    // Handed over for another object, or once the call's synchronous start is over: snapshotted.
    const other = { n: 3 };
    await callWithArgumentsHandedOver(handed, () => target.callTool("probe", other));
    expect(seen[2]).not.toBe(other);
    await target.callTool("probe", handed);
    expect(seen[3]).not.toBe(handed);
    expect(seen[3]).toEqual({ n: 1 });
  });

  it("hands a signal read after the caller's cancel over aborted, with the cancel as its reason", async () => {
    const cancelled = deferred();
    const target = await executorWith(async (_call, options) => {
      await cancelled.promise;
      const reason = options.signal.reason as { code?: string } | undefined;
      return { ok: true, value: { aborted: options.signal.aborted, code: reason?.code } };
    });
    const caller = new AbortController();
    const result = target.callTool("probe", {}, { signal: caller.signal });
    caller.abort();
    cancelled.resolve();
    expect(await result).toMatchObject({ ok: true, value: { aborted: true, code: "CANCELLED" } });
  });

  it("tells an abort watcher of the caller's cancel once, at once when already aborted, and never once it stopped", async () => {
    const cancelled = deferred();
    const told: string[] = [];
    const target = await executorWith(async (call, options) => {
      const running = abortWatchOf(options)!;
      const note = (reason: { code: string }) => told.push(`${String(call.arguments.name)}:${reason.code}`);
      if (call.arguments.name === "watched") running.watchAbort(note);
      if (call.arguments.name === "stopped") running.watchAbort(note)();
      await cancelled.promise;
      if (call.arguments.name === "late") running.watchAbort(note);
      return { ok: true, value: null };
    });
    const caller = new AbortController();
    const calls = ["watched", "stopped", "late"].map((name) => target.callTool("probe", { name }, { signal: caller.signal }));
    caller.abort();
    cancelled.resolve();
    await Promise.all(calls);
    expect(told.sort()).toEqual(["late:CANCELLED", "watched:CANCELLED"]);
  });
});
