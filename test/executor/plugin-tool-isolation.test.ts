/**
 * A host plugin's bad tool (an invalid inputSchema among good ones) is left out alone: the plugin's
 * other tools are served, a call of it answers why, `configStatus()` lists it, and `strict: true`
 * fails start-up naming it.
 */
import { describe, expect, it } from "vitest";
import { createExecutor, isConfigError, type ExecutorPlugin, type Logger } from "../../src/index.js";
import type { ToolDefinition } from "../../src/plugin.js";
import { createTempProject } from "../helpers/temp-project.js";

const tool = (name: string, inputSchema: ToolDefinition["inputSchema"] = { type: "object" }): ToolDefinition => ({ name, description: `${name} tool`, inputSchema });

/** Three tools, the second with a schema no JSON Schema dialect accepts (`type: 5`). */
const stats: ExecutorPlugin = {
  name: "stats",
  async start() {
    const tools = [tool("mean"), tool("median", { type: 5 }), tool("mode")];
    return { listTools: () => tools, callTool: async (call) => ({ ok: true, value: call.name }), close: async () => {} };
  },
};

function start(options: { strict?: boolean; logger?: Logger } = {}) {
  const project = createTempProject({ tools: { tools: [] } });
  return createExecutor({ root: project.root, watch: false, logDir: false, plugins: [stats], ...options });
}

describe("a host plugin's bad tool", () => {
  it("is skipped alone with a warning naming it; the plugin's other tools are served", async () => {
    const warnings: string[] = [];
    const executor = await start({ logger: { debug() {}, info() {}, warn: (message) => void warnings.push(message), error() {} } });
    expect((await executor.listTools()).map((listed) => listed.name)).toEqual(["mean", "mode", "read_result"]);
    expect(await executor.callTool("mode", {})).toMatchObject({ ok: true, value: "mode" });
    expect(warnings).toEqual([expect.stringMatching(/^Tool "median" of plugin "stats" has an invalid JSON Schema: .+ \(tool skipped\)$/)]);
    const result = await executor.callTool("median", {});
    if (result.ok) throw new Error("expected a failure");
    expect(result.error.code).toBe("PLUGIN_FAILED");
    expect(result.error.message).toMatch(/^Tool "median" of plugin "stats" has an invalid JSON Schema: .+; the tool is unavailable$/);
    expect(executor.configStatus().unavailableTools).toEqual([{ name: "median", plugin: "stats", error: result.error }]);
    await executor.close();
  });

  it("with strict: true, fails start-up with CONFIG_INVALID naming it", async () => {
    const error = await start({ strict: true, logger: { debug() {}, info() {}, warn() {}, error() {} } }).catch((caught: unknown) => caught);
    if (!isConfigError(error)) throw error;
    expect(error.issues).toEqual([{ file: 'plugin "stats"', path: "", message: expect.stringMatching(/^Tool "median" of plugin "stats" has an invalid JSON Schema: .+ \(strict: true\)$/) }]);
  });
});
