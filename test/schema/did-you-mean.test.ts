/** An unknown argument names the closest property the schema allows, when one is near. */
import { describe, expect, it } from "vitest";
import { createExecutor } from "../../src/index.js";
import type { ExecutorPlugin } from "../../src/plugin.js";
import { compileSchema, formatSchemaProblems } from "../../src/core/schema/schema-validator.js";
import { createTempProject } from "../helpers/temp-project.js";

const schema = {
  type: "object",
  properties: { path: { type: "string" }, verbose: { type: "boolean" }, options: { type: "object", properties: { delimiter: { type: "string" } }, additionalProperties: false } },
  additionalProperties: false,
};

describe("unknown property", () => {
  it("suggests the closest allowed name, at any depth, and nothing when none is near", () => {
    const validate = compileSchema(schema);
    expect(formatSchemaProblems(validate({ path: "a", verbos: true, options: { delimeter: ";" }, zzz: 1, ["x".repeat(10_000)]: 1 }))).toMatchInlineSnapshot(`"arguments: unknown property "verbos"; did you mean "verbose"?; arguments: unknown property "zzz"; arguments: unknown property "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…" (10000 characters); options: unknown property "delimeter"; did you mean "delimiter"?"`);
  });

  it("reaches the caller in the INVALID_INPUT message", async () => {
    const plugin: ExecutorPlugin = {
      name: "host",
      async start() {
        return { listTools: () => [{ name: "read_csv", description: "read a CSV", inputSchema: schema }], callTool: async () => ({ ok: true, value: null }), close: async () => {} };
      },
    };
    const executor = await createExecutor({ root: createTempProject({ tools: { tools: [] } }).root, watch: false, logDir: false, plugins: [plugin] });
    try {
      const result = await executor.callTool("read_csv", { path: "a.csv", Path: "b.csv" });
      expect(result.ok ? undefined : result.error.message).toMatchInlineSnapshot(`"Invalid arguments for "read_csv": arguments: unknown property "Path"; did you mean "path"?"`);
    } finally {
      await executor.close();
    }
  });
});
