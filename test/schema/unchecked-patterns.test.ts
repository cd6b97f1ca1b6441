/**
 * Patterns the linear-time engine cannot run: tools.json refuses them (CONFIG_INVALID, file and
 * path); a plugin's or MCP server's tool keeps working with that keyword unchecked, and a warning
 * names the tool.
 */
import { describe, expect, it } from "vitest";
import { createExecutor } from "../../src/index.js";
import type { ExecutorPlugin } from "../../src/plugin.js";
import { configErrorText, loadConfigError, projectWithOneTool } from "../config/config-test-helpers.js";
import { createTempProject } from "../helpers/temp-project.js";

const lookahead = { type: "object", properties: { password: { type: "string", pattern: "^(?=.*\\d).{8,}$" } } };

describe("tools.json", () => {
  it("refuses a lookahead pattern with CONFIG_INVALID, the file and the path", async () => {
    const project = projectWithOneTool({ inputSchema: lookahead });
    expect((await loadConfigError(project)).code).toBe("CONFIG_INVALID");
    expect(await configErrorText(project)).toMatchInlineSnapshot(`"tools.json:13:24 tools[0].inputSchema.properties.password.pattern: pattern "^(?=.*\\\\d).{8,}$" cannot be checked in linear time: lookahead (?= or (?! is not supported; rewrite it without lookaround, backreferences or counts above 1000"`);
  });

  it("refuses a backreference in patternProperties of an outputSchema", async () => {
    const outputSchema = { type: "object", patternProperties: { "^(x)\\1$": {} } };
    expect(await configErrorText(projectWithOneTool({ outputSchema }))).toMatchInlineSnapshot(`"tools.json:14:23 tools[0].outputSchema.patternProperties["^(x)\\\\1$"]: pattern "^(x)\\\\1$" cannot be checked in linear time: backreferences are not supported; rewrite it without lookaround, backreferences or counts above 1000"`);
  });
});

describe("a plugin's tool", () => {
  it("stays callable with the keyword unchecked, and a warning names the tool", async () => {
    const warnings: string[] = [];
    const plugin: ExecutorPlugin = {
      name: "host",
      async start() {
        return {
          listTools: () => [{ name: "sign_up", description: "sign up", inputSchema: lookahead }],
          callTool: async (call) => ({ ok: true, value: call.arguments }),
          close: async () => {},
        };
      },
    };
    const logger = { debug() {}, info() {}, warn: (message: string) => warnings.push(message), error() {} };
    const executor = await createExecutor({ root: createTempProject({ tools: { tools: [] } }).root, watch: false, logDir: false, plugins: [plugin], logger });
    try {
      expect(warnings).toMatchInlineSnapshot(`
        [
          "Tool "sign_up" of plugin "host": inputSchema.properties.password.pattern: pattern "^(?=.*\\\\d).{8,}$" cannot be checked in linear time: lookahead (?= or (?! is not supported; that keyword is left unchecked",
        ]
      `);
      expect(await executor.callTool("sign_up", { password: "no digits" })).toMatchObject({ ok: true });
      expect(await executor.callTool("sign_up", { password: 1 })).toMatchObject({ ok: false, error: { code: "INVALID_INPUT" } });
    } finally {
      await executor.close();
    }
  });
});
