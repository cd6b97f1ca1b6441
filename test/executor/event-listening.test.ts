/**
 * Whether the host hears a plugin's event (event-listening.ts): the built-in plugins build an
 * event's payload only then. Start-up holds events, so everything counts as heard while it runs.
 */
import { describe, expect, it } from "vitest";
import { createExecutor, type ExecutorPlugin } from "../../src/index.js";
import type { PluginContext } from "../../src/plugin.js";
import { eventListening } from "../../src/core/executor/event-listening.js";
import { createTempProject } from "../helpers/temp-project.js";

/** A plugin that keeps the context it was started with, and asks at start whether `code:end` is heard. */
function keepingContext(): { plugin: ExecutorPlugin; context: () => PluginContext; heardAtStart: () => boolean | undefined } {
  let kept: PluginContext | undefined;
  let heardAtStart: boolean | undefined;
  const plugin: ExecutorPlugin = {
    name: "keeper",
    async start(_entries, context) {
      kept = context;
      heardAtStart = eventListening(context)("code:end");
      return { listTools: () => [], callTool: async () => ({ ok: true, value: null }), close: async () => {} };
    },
  };
  return { plugin, context: () => kept!, heardAtStart: () => heardAtStart };
}

describe("eventListening", () => {
  it("hears an event while a listener is on it, and everything during start-up", async () => {
    const keeper = keepingContext();
    const project = createTempProject({ tools: { tools: [] } });
    const executor = await createExecutor({ root: project.root, watch: false, logDir: false, plugins: [keeper.plugin] });
    const hears = eventListening(keeper.context());
    expect(keeper.heardAtStart()).toBe(true);
    // The held start-up events go out at the next turn; until then every event still counts as heard.
    await new Promise((resolve) => setImmediate(resolve));
    expect(hears("code:end")).toBe(false);
    const stop = executor.on("code:end", () => {});
    expect(hears("code:end")).toBe(true);
    expect(hears("code:start")).toBe(false);
    stop();
    expect(hears("code:end")).toBe(false);
    await executor.close();
  });

  it("hears everything on a context the core did not make", () => {
    const context = { emit: () => {} } as unknown as PluginContext;
    expect(eventListening(context)("code:end")).toBe(true);
  });
});
