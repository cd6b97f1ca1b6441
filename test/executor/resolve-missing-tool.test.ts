/**
 * The `resolveMissingTool` capability: a plugin makes a tool that is not in the registry available
 * during the call that names it (the MCP plugin does it for a login stored by another process). The
 * call then runs the tool; a resolver that throws or says false leaves the usual answer; one that
 * never settles is bounded by the call's timeout and cancel.
 */
import { afterEach, expect, it } from "vitest";
import { createExecutor, type Executor, type ExecutorPlugin } from "../../src/index.js";
import { createTempProject } from "../helpers/temp-project.js";

const open: Executor[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((executor) => executor.close()));
});

/** A plugin whose tool `lazy_echo` exists only once a resolve for it ran; it counts the resolves it was asked. */
function lazyPlugin() {
  const asked: string[] = [];
  let listed = false;
  const listeners = new Set<() => void>();
  const plugin: ExecutorPlugin = {
    name: "lazy",
    start: async () => ({
      listTools: () => (listed ? [{ name: "lazy_echo", description: "Echo, once loaded", inputSchema: { type: "object" } }] : []),
      callTool: async (call) => ({ ok: true, value: { echoed: call.arguments } }),
      close: async () => {},
      onToolsChanged(listener) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      explainMissingTool: (name) => (name.startsWith("lazy_") ? { code: "SERVICE_UNAVAILABLE", message: `${name} is not loaded` } : undefined),
      async resolveMissingTool(name) {
        asked.push(name);
        if (name !== "lazy_echo") return false;
        listed = true;
        for (const listener of listeners) listener();
        return true;
      },
    }),
  };
  return { plugin, asked };
}

async function start(plugins: ExecutorPlugin[]): Promise<Executor> {
  const project = createTempProject({ tools: { tools: [] } });
  const executor = await createExecutor({ root: project.root, watch: false, logDir: false, mcpConfig: false, plugins });
  open.push(executor);
  return executor;
}

it("runs the call that named a tool a plugin made available, and later calls find it listed", async () => {
  const lazy = lazyPlugin();
  const executor = await start([lazy.plugin]);
  expect((await executor.listTools()).map((tool) => tool.name)).not.toContain("lazy_echo");
  expect(await executor.callTool("lazy_echo", { n: 1 })).toMatchObject({ ok: true, value: { echoed: { n: 1 } } });
  expect(await executor.callTool("lazy_echo", { n: 2 })).toMatchObject({ ok: true, value: { echoed: { n: 2 } } });
  expect(lazy.asked).toEqual(["lazy_echo"]);
  // A name it does not make available keeps the plugin's explanation.
  expect(await executor.callTool("lazy_other", {})).toMatchObject({ ok: false, error: { code: "SERVICE_UNAVAILABLE", message: "lazy_other is not loaded" } });
});

it("ignores a resolver that throws, and bounds one that never settles by the call's timeout and cancel", async () => {
  const hanging: ExecutorPlugin = {
    name: "hanging",
    start: async () => ({
      listTools: () => [],
      callTool: async () => ({ ok: true, value: null }),
      close: async () => {},
      resolveMissingTool: (name) => (name === "boom" ? Promise.reject(new Error("resolver broke")) : new Promise<boolean>(() => {})),
    }),
  };
  const executor = await start([hanging]);
  expect(await executor.callTool("boom", {})).toMatchObject({ ok: false, error: { code: "TOOL_NOT_FOUND" } });
  expect(await executor.callTool("never", {}, { timeoutMs: 100 })).toMatchObject({ ok: false, error: { code: "TOOL_NOT_FOUND" } });
  const controller = new AbortController();
  const cancelled = executor.callTool("never", {}, { signal: controller.signal });
  controller.abort();
  expect(await cancelled).toMatchObject({ ok: false, error: { code: "TOOL_NOT_FOUND" } });
});

it("is not asked when code mode only explains a tool it does not list: nothing runs, and code gets the plugin's explanation", async () => {
  const lazy = lazyPlugin();
  const project = createTempProject({ tools: { tools: [] } });
  const executor = await createExecutor({ root: project.root, watch: false, logDir: false, mcpConfig: false, plugins: [lazy.plugin], codeExecution: { enabled: true, poolSize: 1 } });
  open.push(executor);
  const run = await executor.executeCode({ code: `return call_tool("lazy_echo", { n: 1 }).error` });
  expect(run).toMatchObject({ ok: true, value: { code: "SERVICE_UNAVAILABLE", message: "lazy_echo is not loaded" } });
  expect(lazy.asked).toEqual([]);
  // A direct call still resolves it and runs.
  expect(await executor.callTool("lazy_echo", { n: 2 })).toMatchObject({ ok: true, value: { echoed: { n: 2 } } });
});
