/**
 * A host plugin's tool whose schema no validator can use (a `type: 5` among good tools) never costs
 * the tool: it stays listed and callable with its arguments unchecked, one warning names it and the
 * place in the schema, and the plugin's other tools are served. `strict: true` fails start-up naming it.
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

const UNUSABLE = /^Tool "median" of plugin "stats": its inputSchema cannot be used for validation \(inputSchema\.type: .+\)/;

describe("a host plugin's tool with an unusable schema", () => {
  it("stays listed and callable unchecked, with one warning naming it; the plugin's other tools are served", async () => {
    const warnings: string[] = [];
    const executor = await start({ logger: { debug() {}, info() {}, warn: (message) => void warnings.push(message), error() {} } });
    expect((await executor.listTools()).map((listed) => listed.name)).toEqual(["mean", "median", "mode", "read_result"]);
    expect(await executor.callTool("mode", {})).toMatchObject({ ok: true, value: "mode" });
    expect(await executor.callTool("median", { anything: [1, 2] })).toMatchObject({ ok: true, value: "median" });
    expect(await executor.callTool("median", {})).toMatchObject({ ok: true, value: "median" });
    expect(warnings).toEqual([expect.stringMatching(UNUSABLE)]);
    expect(warnings[0]).toMatch(/; the tool works, but its arguments are not checked$/);
    expect(executor.configStatus().unavailableTools).toEqual([]);
    await executor.close();
  });

  it("with strict: true, fails start-up with CONFIG_INVALID naming it", async () => {
    const error = await start({ strict: true, logger: { debug() {}, info() {}, warn() {}, error() {} } }).catch((caught: unknown) => caught);
    if (!isConfigError(error)) throw error;
    expect(error.code).toBe("CONFIG_INVALID");
    expect(error.issues).toEqual([{ file: 'plugin "stats"', path: "", message: expect.stringMatching(UNUSABLE) }]);
    expect(error.issues[0]!.message).toMatch(/\) \(strict: true\)$/);
  });
});
