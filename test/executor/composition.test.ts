/**
 * Regression: a host plugin whose tool calls other tools (through the call's own `callTool`) never
 * deadlocks on the concurrency limit — not under `maxConcurrency: 1`, not with 20 overlapping calls
 * at the default — and sub-calls still respect the limit: they borrow their parent's slot, they do
 * not add slots.
 */
import { describe, expect, it } from "vitest";
import { createExecutor, type ExecutorOptions } from "../../src/index.js";
import { toolError, type ExecutorPlugin, type ToolDefinition } from "../../src/plugin.js";
import { createTempProject } from "../helpers/temp-project.js";

const schema = { type: "object", properties: { n: { type: "number" } }, additionalProperties: false };

/** `double` (one call at a time), and `quadruple` / `fan_out`, which compose it. */
function composerPlugin(observed: { running: number; most: number }): ExecutorPlugin {
  const tools: ToolDefinition[] = [
    { name: "double", description: "n × 2", inputSchema: schema },
    { name: "quadruple", description: "double, twice", inputSchema: schema, parallel: true },
    { name: "fan_out", description: "three doubles at once", inputSchema: schema, parallel: true },
    { name: "double_top_level", description: "double through context.callTool with parentExecutionId", inputSchema: schema, parallel: true },
    { name: "chain_of", description: "n calls deep, then what context.callChain says", inputSchema: schema, parallel: true },
  ];
  return {
    name: "composer",
    async start(_entries, context) {
      return {
        listTools: () => tools,
        async callTool(call, options) {
          const n = call.arguments.n as number;
          if (call.name === "double") {
            observed.running++;
            observed.most = Math.max(observed.most, observed.running);
            await new Promise((resolve) => setImmediate(resolve));
            observed.running--;
            return { ok: true, value: n * 2 };
          }
          if (call.name === "quadruple") {
            const once = await options.callTool("double", { n });
            if (!once.ok) return { ok: false, error: once.error };
            const twice = await options.callTool("double", { n: once.value });
            return twice.ok ? { ok: true, value: twice.value } : { ok: false, error: twice.error };
          }
          if (call.name === "fan_out") {
            const results = await Promise.all([1, 2, 3].map((k) => options.callTool("double", { n: n * k })));
            const failed = results.find((result) => !result.ok);
            return failed && !failed.ok ? { ok: false, error: failed.error } : { ok: true, value: results.map((result) => (result.ok ? result.value : null)) };
          }
          if (call.name === "chain_of") {
            if (n === 0) return { ok: true, value: { ids: [call.executionId], chain: context.callChain?.(call.executionId) } };
            const inner = await options.callTool("chain_of", { n: n - 1 });
            if (!inner.ok) return { ok: false, error: inner.error };
            const { ids, chain } = inner.value as { ids: string[]; chain: string[] };
            return { ok: true, value: { ids: [call.executionId, ...ids], chain } };
          }
          if (call.name === "double_top_level") {
            const result = await context.callTool("double", { n }, { parentExecutionId: call.executionId });
            return result.ok ? { ok: true, value: result.value } : { ok: false, error: result.error };
          }
          return toolError("TOOL_NOT_FOUND", call.name);
        },
        close: async () => {},
      };
    },
  };
}

async function open(options: ExecutorOptions = {}) {
  const observed = { running: 0, most: 0 };
  const project = createTempProject({ tools: { tools: [] } });
  const executor = await createExecutor({ root: project.root, watch: false, logDir: false, plugins: [composerPlugin(observed)], defaultTimeoutMs: 5_000, ...options });
  return { executor, observed };
}

describe("composing tools", () => {
  it("finishes under maxConcurrency: 1", async () => {
    const { executor } = await open({ maxConcurrency: 1 });
    try {
      expect(await executor.callTool("quadruple", { n: 3 })).toMatchObject({ ok: true, value: 12 });
      expect(await executor.callTool("fan_out", { n: 1 })).toMatchObject({ ok: true, value: [2, 4, 6] });
      expect(await executor.callTool("double_top_level", { n: 5 })).toMatchObject({ ok: true, value: 10 });
    } finally {
      await executor.close();
    }
  });

  it("finishes 20 overlapping composing calls at the default limit, each sub-call tied to its parent", async () => {
    const { executor } = await open();
    try {
      const parents = new Map<string, string>();
      executor.on("tool:end", (event) => event.parentExecutionId && parents.set(event.executionId, event.parentExecutionId));
      const results = await Promise.all(Array.from({ length: 20 }, (_, n) => executor.callTool("quadruple", { n })));
      expect(results.map((result) => (result.ok ? result.value : result.error.code))).toEqual(Array.from({ length: 20 }, (_, n) => n * 4));
      expect(parents.size).toBe(40);
      expect(new Set(parents.values())).toEqual(new Set(results.map((result) => result.executionId)));
    } finally {
      await executor.close();
    }
  });

  it("tells a plugin which calls under way led to a call, nearest first (context.callChain)", async () => {
    const { executor } = await open();
    try {
      expect(await executor.callTool("chain_of", { n: 0 })).toMatchObject({ ok: true, value: { chain: [] } });
      const deep = await executor.callTool("chain_of", { n: 2 });
      const { ids, chain } = (deep.ok ? deep.value : {}) as { ids: string[]; chain: string[] };
      expect(ids).toHaveLength(3);
      expect(ids[0]).toBe(deep.executionId);
      expect(chain).toEqual([ids[1], ids[0]]);
    } finally {
      await executor.close();
    }
  });

  it("keeps sub-calls within maxConcurrency: fan-outs borrow their parent's one slot", async () => {
    const { executor, observed } = await open({ maxConcurrency: 2 });
    try {
      const results = await Promise.all(Array.from({ length: 10 }, () => executor.callTool("fan_out", { n: 1 })));
      expect(results.every((result) => result.ok)).toBe(true);
      expect(observed.most).toBeGreaterThanOrEqual(1);
      expect(observed.most).toBeLessThanOrEqual(2);
    } finally {
      await executor.close();
    }
  });
});
