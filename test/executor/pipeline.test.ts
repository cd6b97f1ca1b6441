/** The call pipeline, through createExecutor with host plugins: envelopes, events, faults and deadlines. */
import { describe, expect, it } from "vitest";
import { createExecutor, isToolexecError, type ExecutorPlugin } from "../../src/index.js";
import { toolError, type PluginInstance, type ToolDefinition } from "../../src/plugin.js";
import { ABORT_GRACE_MS } from "../../src/core/executor/call-pipeline.js";
import { deferred } from "../helpers/deferred.js";
import { LATENESS_MARGIN_MS } from "../helpers/lateness-margin.js";
import { createTempProject } from "../helpers/temp-project.js";

type Handler = PluginInstance["callTool"];

/** A host plugin serving the given tools with one handler. */
function hostPlugin(name: string, tools: ToolDefinition[], handler: Handler, extra: Partial<PluginInstance> = {}): ExecutorPlugin {
  return {
    name,
    async start() {
      return { listTools: () => tools, callTool: handler, close: async () => {}, ...extra };
    },
  };
}

const tool = (name: string, extra: Partial<ToolDefinition> = {}): ToolDefinition => ({
  name,
  description: `${name} tool`,
  inputSchema: { type: "object", properties: { n: { type: "number" } }, additionalProperties: false },
  ...extra,
});

async function executorWith(...plugins: ExecutorPlugin[]) {
  const project = createTempProject({ tools: { tools: [] } });
  return createExecutor({ root: project.root, watch: false, logDir: false, plugins });
}

describe("call pipeline", () => {
  it("wraps a plugin's value in the envelope with id, tool and duration", async () => {
    const executor = await executorWith(hostPlugin("math", [tool("double")], async (call) => ({ ok: true, value: (call.arguments.n as number) * 2 })));
    const result = await executor.callTool("double", { n: 21 });
    expect(result).toMatchObject({ ok: true, value: 42, tool: "double" });
    expect(result.executionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
    await executor.close();
  });

  it("emits tool:start then tool:end for a success, and tool:error too for a failure", async () => {
    const executor = await executorWith(hostPlugin("math", [tool("double")], async (call) => (call.arguments.n === 0 ? toolError("TOOL_FAILED", "zero") : { ok: true, value: 1 })));
    const seen: string[] = [];
    executor.on("tool:start", (event) => seen.push(`start:${event.tool}`));
    executor.on("tool:end", (event) => seen.push(`end:${event.ok}`));
    const unsubscribe = executor.on("tool:error", (event) => seen.push(`error:${event.error.code}`));
    await executor.callTool("double", { n: 1 });
    await executor.callTool("double", { n: 0 });
    unsubscribe();
    await executor.callTool("double", { n: 0 });
    expect(seen).toEqual(["start:double", "end:true", "start:double", "end:false", "error:TOOL_FAILED", "start:double", "end:false"]);
    await executor.close();
  });

  it("keeps calling when a listener throws, and reports it to the logger", async () => {
    const warnings: string[] = [];
    const project = createTempProject({ tools: { tools: [] } });
    const executor = await createExecutor({
      root: project.root,
      watch: false,
      logDir: false,
      logger: { debug() {}, info() {}, error() {}, warn: (message) => warnings.push(message) },
      plugins: [hostPlugin("math", [tool("one")], async () => ({ ok: true, value: 1 }))],
    });
    executor.on("tool:end", () => {
      throw new Error("listener bug");
    });
    expect(await executor.callTool("one", {})).toMatchObject({ ok: true, value: 1 });
    expect(warnings.join("\n")).toContain('A "tool:end" listener threw: listener bug');
    await executor.close();
  });

  it("rejects arguments that are not a JSON object before the plugin sees them", async () => {
    let calls = 0;
    const executor = await executorWith(hostPlugin("math", [tool("double")], async () => (calls++, { ok: true, value: 0 })));
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    const cases: unknown[] = [[1, 2], "text", 5, { n: 1n }, circular, { n: "x" }, { extra: 1 }, new Map()];
    const messages = [];
    for (const args of cases) {
      const result = await executor.callTool("double", args);
      expect(result.ok).toBe(false);
      if (!result.ok) {
        expect(result.error.code).toBe("INVALID_INPUT");
        messages.push(result.error.message);
      }
    }
    expect(calls).toBe(0);
    expect(messages.slice(0, 3)).toEqual([
      'Expected the arguments of "double" to be a plain object, got an array',
      'Expected the arguments of "double" to be a plain object, got "text"',
      'Expected the arguments of "double" to be a plain object, got 5',
    ]);
    expect(messages[5]).toBe('Invalid arguments for "double": n: must be number');
    expect(messages[6]).toBe('Invalid arguments for "double": arguments: unknown property "extra"');
    expect(messages[7]).toBe('Expected the arguments of "double" to be a plain object, got a Map');
    expect(await executor.callTool("double")).toMatchObject({ ok: true });
    await executor.close();
  });

  it("hands the plugin a snapshot of the arguments, untouched by later changes", async () => {
    let seen: unknown;
    const mutated = deferred();
    const executor = await executorWith(
      hostPlugin("math", [tool("look", { inputSchema: { type: "object" } })], async (call) => {
        // Reads the arguments only after the caller has changed its object.
        await mutated.promise;
        seen = call.arguments;
        return { ok: true, value: null };
      }),
    );
    const args = { list: [1] };
    const pending = executor.callTool("look", args);
    args.list.push(2);
    mutated.resolve();
    await pending;
    expect(seen).toEqual({ list: [1] });
    await executor.close();
  });

  it("turns a throwing plugin or a malformed answer into PLUGIN_FAILED", async () => {
    const executor = await executorWith(
      hostPlugin("broken", [tool("throws"), tool("malformed")], async (call) => {
        if (call.name === "throws") throw new Error("kaboom");
        return { value: 1 } as never;
      }),
    );
    expect(await executor.callTool("throws", {})).toMatchObject({ ok: false, error: { code: "PLUGIN_FAILED", message: 'Plugin "broken" threw while calling "throws": kaboom' } });
    expect(await executor.callTool("malformed", {})).toMatchObject({ ok: false, error: { code: "PLUGIN_FAILED" } });
    await executor.close();
  });

  it("checks the value against the tool's outputSchema", async () => {
    const executor = await executorWith(hostPlugin("math", [tool("count", { outputSchema: { type: "integer" } })], async (call) => ({ ok: true, value: call.arguments.n })));
    expect(await executor.callTool("count", { n: 3 })).toMatchObject({ ok: true, value: 3 });
    const bad = await executor.callTool("count", { n: 1.5 });
    expect(bad).toMatchObject({ ok: false, error: { code: "INVALID_OUTPUT", message: 'The result of "count" does not match its outputSchema: result: must be integer' } });
    await executor.close();
  });

  it("answers TIMEOUT at the deadline even when the plugin ignores its signal", async () => {
    const executor = await executorWith(hostPlugin("stuck", [tool("hang", { timeoutMs: 200 })], () => new Promise(() => {})));
    const started = Date.now();
    const result = await executor.callTool("hang", {});
    const elapsed = Date.now() - started;
    expect(result).toMatchObject({ ok: false, error: { code: "TIMEOUT", message: '"hang" did not finish within 200 ms', details: { timeoutMs: 200 } } });
    expect(elapsed).toBeGreaterThanOrEqual(195);
    // The plugin never answers: without the deadline the call would hang until the test's own timeout.
    expect(elapsed).toBeLessThan(200 + ABORT_GRACE_MS + LATENESS_MARGIN_MS);
    await executor.close();
  });

  it("lets the caller's timeoutMs override the tool's, and rejects a bad one", async () => {
    const executor = await executorWith(hostPlugin("stuck", [tool("hang", { timeoutMs: 60_000 })], () => new Promise(() => {})));
    expect(await executor.callTool("hang", {}, { timeoutMs: 100 })).toMatchObject({ ok: false, error: { code: "TIMEOUT" } });
    for (const timeoutMs of [0, -1, 1.5, Number.NaN, 2 ** 31]) {
      expect(await executor.callTool("hang", {}, { timeoutMs })).toMatchObject({ ok: false, error: { code: "INVALID_OPTIONS" } });
    }
    await executor.close();
  });

  it("answers CANCELLED when the caller's signal aborts, and passes the abort to the plugin", async () => {
    let pluginSignal: AbortSignal | undefined;
    const entered = deferred();
    const executor = await executorWith(
      hostPlugin("stuck", [tool("hang")], (_call, { signal }) => {
        pluginSignal = signal;
        entered.resolve();
        return new Promise(() => {});
      }),
    );
    const controller = new AbortController();
    const pending = executor.callTool("hang", {}, { signal: controller.signal });
    await entered.promise;
    controller.abort();
    expect(await pending).toMatchObject({ ok: false, error: { code: "CANCELLED" } });
    expect(pluginSignal?.aborted).toBe(true);
    await executor.close();
  });

  it("cancels many calls that share one caller signal, with one listener on it (no MaxListenersExceededWarning)", async () => {
    const executor = await executorWith(
      hostPlugin("stuck", [tool("hang", { parallel: true })], (_call, { signal }) => new Promise((resolve) => signal.addEventListener("abort", () => resolve(toolError("CANCELLED", "stopped"))))),
    );
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on("warning", onWarning);
    try {
      const controller = new AbortController();
      const calls = Array.from({ length: 30 }, () => executor.callTool("hang", {}, { signal: controller.signal }));
      controller.abort();
      const results = await Promise.all(calls);
      expect(results.map((result) => (result.ok ? "ok" : result.error.code))).toEqual(Array.from({ length: 30 }, () => "CANCELLED"));
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).toEqual([]);
    } finally {
      process.off("warning", onWarning);
      await executor.close();
    }
  });

  it("suggests the closest name for an unknown tool", async () => {
    const executor = await executorWith(hostPlugin("math", [tool("double")], async () => ({ ok: true, value: 0 })));
    expect(await executor.callTool("doubel", {})).toMatchObject({ ok: false, error: { code: "TOOL_NOT_FOUND", message: 'No tool named "doubel"; did you mean "double"?' } });
    await executor.close();
  });

  it("carries parentExecutionId into events", async () => {
    const executor = await executorWith(hostPlugin("math", [tool("one")], async () => ({ ok: true, value: 1 })));
    const parents: Array<string | undefined> = [];
    executor.on("tool:end", (event) => parents.push(event.parentExecutionId));
    await executor.callTool("one", {}, { parentExecutionId: "run-1" });
    expect(parents).toEqual(["run-1"]);
    await executor.close();
  });

  it("lets a plugin compose tools through context.callTool", async () => {
    const composer: ExecutorPlugin = {
      name: "composer",
      async start(_entries, context) {
        return {
          listTools: () => [tool("quadruple")],
          async callTool(call) {
            const once = await context.callTool("double", call.arguments, { parentExecutionId: call.executionId });
            if (!once.ok) return once;
            return context.callTool("double", { n: once.value });
          },
          close: async () => {},
        };
      },
    };
    const executor = await executorWith(hostPlugin("math", [tool("double")], async (call) => ({ ok: true, value: (call.arguments.n as number) * 2 })), composer);
    expect(await executor.callTool("quadruple", { n: 5 })).toMatchObject({ ok: true, value: 20 });
    await executor.close();
  });

  it("updates the registry and emits tools:changed when a plugin says its tools changed", async () => {
    let tools = [tool("first")];
    let notify = () => {};
    const dynamic: ExecutorPlugin = {
      name: "dynamic",
      async start() {
        return {
          listTools: () => tools,
          callTool: async (call) => ({ ok: true, value: call.name }),
          onToolsChanged(listener) {
            notify = listener;
            return () => (notify = () => {});
          },
          close: async () => {},
        };
      },
    };
    const executor = await executorWith(dynamic);
    const changes: string[][] = [];
    executor.on("tools:changed", (event) => changes.push(event.tools));
    tools = [tool("second")];
    notify();
    expect(changes).toEqual([["second", "read_result"]]);
    expect((await executor.listTools()).map((info) => info.name)).toEqual(["second", "read_result"]);
    expect(await executor.callTool("first", {})).toMatchObject({ ok: false, error: { code: "TOOL_NOT_FOUND" } });
    expect(await executor.callTool("second", {})).toMatchObject({ ok: true, value: "second" });
    await executor.close();
  });
});

describe("executor lifecycle", () => {
  it("refuses two plugins serving the same tool name", async () => {
    const error = await executorWith(
      hostPlugin("a", [tool("same")], async () => ({ ok: true, value: 1 })),
      hostPlugin("b", [tool("same")], async () => ({ ok: true, value: 2 })),
    ).catch((caught: unknown) => caught);
    expect(isToolexecError(error) && error.code).toBe("TOOL_NAME_CONFLICT");
    expect((error as Error).message).toBe('Tool name "same" is served by both plugin "a" and plugin "b"; rename one of them');
  });

  it("refuses a tools.json tool that clashes with a host plugin's tool", async () => {
    const project = createTempProject({ tools: { tools: [{ name: "same", description: "d", runtime: "shell", script: "x.sh", inputSchema: { type: "object" } }] } });
    const error = await createExecutor({ root: project.root, watch: false, logDir: false, plugins: [hostPlugin("a", [tool("same")], async () => ({ ok: true, value: 1 }))] }).catch((caught: unknown) => caught);
    expect(isToolexecError(error) && error.code).toBe("TOOL_NAME_CONFLICT");
  });

  it("reports a plugin that fails to start, and closes the plugins already started", async () => {
    let closed = 0;
    const good = hostPlugin("good", [tool("ok")], async () => ({ ok: true, value: 1 }), { close: async () => void closed++ });
    const bad: ExecutorPlugin = {
      name: "bad",
      start: async () => {
        throw new Error("no database");
      },
    };
    const error = await executorWith(good, bad).catch((caught: unknown) => caught);
    expect(isToolexecError(error) && error.code).toBe("PLUGIN_FAILED");
    expect((error as Error).message).toBe('Plugin "bad" failed to start: no database');
    expect(closed).toBe(1);
  });

  it("rejects duplicate or reserved plugin names and unknown options", async () => {
    const project = createTempProject({ tools: { tools: [] } });
    const plugin = hostPlugin("same", [tool("x")], async () => ({ ok: true, value: 1 }));
    await expect(createExecutor({ root: project.root, plugins: [plugin, plugin] })).rejects.toMatchObject({ code: "INVALID_OPTIONS" });
    await expect(createExecutor({ root: project.root, plugins: [{ ...plugin, name: "script" }] })).rejects.toMatchObject({ code: "INVALID_OPTIONS" });
    await expect(createExecutor({ root: project.root, maxConcurrency: 0 })).rejects.toMatchObject({ code: "INVALID_OPTIONS" });
    await expect(createExecutor({ root: project.root, ...({ wtach: true } as object) })).rejects.toMatchObject({ code: "INVALID_OPTIONS" });
  });

  it("closes idempotently: calls under way end with EXECUTOR_CLOSED, later use throws", async () => {
    let closes = 0;
    const entered = deferred();
    const executor = await executorWith(
      hostPlugin(
        "stuck",
        [tool("hang")],
        () => {
          entered.resolve();
          return new Promise(() => {});
        },
        { close: async () => void closes++ },
      ),
    );
    const pending = executor.callTool("hang", {});
    await entered.promise;
    await Promise.all([executor.close(), executor.close()]);
    expect(await pending).toMatchObject({ ok: false, error: { code: "EXECUTOR_CLOSED" } });
    expect(closes).toBe(1);
    await expect(executor.callTool("hang", {})).rejects.toMatchObject({ code: "EXECUTOR_CLOSED" });
    await expect(executor.listTools()).rejects.toMatchObject({ code: "EXECUTOR_CLOSED" });
  });
});
