/**
 * Saved tools that call each other through another plugin's tool (which passes the call on with
 * its own `options.callTool`) are still stopped at the depth limit: code mode follows the
 * executor's record of which call led to which, not async context.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExecutor, type Executor } from "../../src/index.js";
import type { ExecutorPlugin } from "../../src/plugin.js";
import { silentLogger, writeCodeProject, type CodeProject } from "../code/code-test-helpers.js";

/** `relay({ name })`: calls tool `name` as part of this call and returns its value. */
const relayPlugin: ExecutorPlugin = {
  name: "relay",
  async start() {
    return {
      listTools: () => [{ name: "relay", description: "Calls the named tool", inputSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] }, parallel: true }],
      async callTool(call, options) {
        const result = await options.callTool(String(call.arguments.name), {});
        return result.ok ? { ok: true, value: result.value } : { ok: false, error: result.error };
      },
      close: async () => {},
    };
  },
};

let project: CodeProject;
let executor: Executor;

beforeAll(async () => {
  project = writeCodeProject({ codeExecution: { enabled: true, poolSize: 1, maxSavedToolDepth: 3 } });
  executor = await createExecutor({ root: project.root, logger: silentLogger, watch: false, logDir: false, plugins: [relayPlugin] });
});
afterAll(async () => {
  await executor?.close();
  project?.remove();
});

describe("a loop of saved tools through another plugin's tool", () => {
  it("stops at maxSavedToolDepth, each level on a borrowed runtime", async () => {
    await executor.saveTool({
      name: "ring",
      description: "Calls itself through relay",
      inputSchema: { type: "object" },
      code: "const r = call_tool('relay', { name: 'ring' });\nif (!r.ok) throw new Error(r.error.code + ': ' + r.error.message);\nr.value",
    });
    // On a pool of one, a level that did not know it was called from a code run would wait for the
    // runtime its caller holds, until the deadline (TIMEOUT), instead of borrowing one.
    const result = await executor.callTool("ring", {});
    expect(result.ok).toBe(false);
    expect(result.ok ? "" : result.error.message).toContain('RECURSION_LIMIT: Saved tool "ring" was not run: 3 saved tools already run inside each other (ring → ring → ring → ring), the limit is 3');
  });
});
