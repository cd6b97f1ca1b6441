/** Calls under way share one deadline timer (call-deadlines.ts): every call still expires on time, and only calls under way hold the process open. */
import { describe, expect, it } from "vitest";
import { createExecutor, type ExecutorPlugin } from "../../src/index.js";
import type { PluginCallOptions, ToolDefinition } from "../../src/plugin.js";
import { ABORT_GRACE_MS } from "../../src/core/executor/call-pipeline.js";
import { LATENESS_MARGIN_MS } from "../helpers/lateness-margin.js";
import { createTempProject } from "../helpers/temp-project.js";

const tool = (name: string): ToolDefinition => ({ name, description: `${name} tool`, inputSchema: { type: "object" }, parallel: true });

/** `hang` never answers; `quick` answers at once, after `onQuick` saw its call under way. */
function plugin(onQuick: (options: PluginCallOptions) => void = () => {}): ExecutorPlugin {
  return {
    name: "deadlines",
    async start() {
      return {
        listTools: () => [tool("hang"), tool("quick")],
        callTool: async (call, options) => {
          if (call.name === "hang") return new Promise(() => {});
          onQuick(options);
          return { ok: true, value: "done" };
        },
        close: async () => {},
      };
    },
  };
}

async function executorWith(instance: ExecutorPlugin) {
  const project = createTempProject({ tools: { tools: [] } });
  return createExecutor({ root: project.root, watch: false, logDir: false, plugins: [instance] });
}

/** Refed timers, which hold the process open. */
const timersHoldingTheProcess = () => process.getActiveResourcesInfo().filter((resource) => resource === "Timeout").length;

describe("call deadlines", () => {
  it("expires a call whose deadline comes before that of a call already waiting", async () => {
    const executor = await executorWith(plugin());
    const long = executor.callTool("hang", {}, { timeoutMs: 60_000 });
    const started = Date.now();
    const short = await executor.callTool("hang", {}, { timeoutMs: 200 });
    const elapsed = Date.now() - started;
    expect(short).toMatchObject({ ok: false, error: { code: "TIMEOUT", message: '"hang" did not finish within 200 ms' } });
    // Not at the long call's deadline, a minute away.
    expect(elapsed).toBeLessThan(200 + ABORT_GRACE_MS + LATENESS_MARGIN_MS);
    await executor.close();
    expect(await long).toMatchObject({ ok: false, error: { code: "EXECUTOR_CLOSED" } });
  });

  it("expires a call whose earlier neighbours ended first", async () => {
    const executor = await executorWith(plugin());
    expect(await executor.callTool("quick", {}, { timeoutMs: 300 })).toMatchObject({ ok: true });
    const started = Date.now();
    const result = await executor.callTool("hang", {}, { timeoutMs: 600 });
    const elapsed = Date.now() - started;
    expect(result).toMatchObject({ ok: false, error: { code: "TIMEOUT", message: '"hang" did not finish within 600 ms' } });
    expect(elapsed).toBeGreaterThanOrEqual(595);
    expect(elapsed).toBeLessThan(600 + ABORT_GRACE_MS + LATENESS_MARGIN_MS);
    await executor.close();
  });

  it("holds the process open while a call is under way, and not once it ended", async () => {
    let during = -1;
    const executor = await executorWith(plugin(() => (during = timersHoldingTheProcess())));
    const before = timersHoldingTheProcess();
    expect(await executor.callTool("quick", {}, { timeoutMs: 60_000 })).toMatchObject({ ok: true });
    expect(during).toBe(before + 1);
    expect(timersHoldingTheProcess()).toBe(before);
    // A second call while the first one's timer is still armed (a minute away): the same.
    expect(await executor.callTool("quick", {}, { timeoutMs: 60_000 })).toMatchObject({ ok: true });
    expect(during).toBe(before + 1);
    expect(timersHoldingTheProcess()).toBe(before);
    await executor.close();
  });
});
