/**
 * An unknown tool name of any size is answered at once: the "did you mean" search costs name length
 * × registry size, and a 100 KB name blocked the event loop 3.3 s against 200 tools. Names longer
 * than any tool's get no hint and are cut in the message.
 */
import { describe, expect, it } from "vitest";
import { createExecutor } from "../../src/index.js";
import type { ExecutorPlugin } from "../../src/plugin.js";
import { createTempProject } from "../helpers/temp-project.js";

const manyTools: ExecutorPlugin = {
  name: "many",
  async start() {
    const tools = Array.from({ length: 200 }, (_, index) => ({ name: `tool_number_${index}`, description: `Tool ${index}`, inputSchema: { type: "object" } }));
    return { listTools: () => tools, callTool: async () => ({ ok: true, value: null }), close: async () => {} };
  },
};

describe("unknown tool name", () => {
  it("answers a 1 MB name at once, with a short message", async () => {
    const executor = await createExecutor({ root: createTempProject({ tools: { tools: [] } }).root, watch: false, logDir: false, plugins: [manyTools] });
    try {
      const started = performance.now();
      const result = await executor.callTool("x".repeat(1_000_000), {});
      // No suggestion search over 1 MB (seconds); the margin is for a busy machine.
      expect(performance.now() - started).toBeLessThan(2_000);
      expect(result.ok ? undefined : result.error.message).toMatchInlineSnapshot(`"No tool named "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx..." (1000000 characters): names are at most 128 characters"`);
      const typo = await executor.callTool("tool_numbr_7", {});
      expect(typo.ok ? undefined : typo.error.message).toMatchInlineSnapshot(`"No tool named "tool_numbr_7"; did you mean "tool_number_7"?"`);
    } finally {
      await executor.close();
    }
  });
});
