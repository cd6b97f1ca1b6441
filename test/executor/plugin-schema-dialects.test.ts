/**
 * A host plugin's tools are validated in the JSON Schema dialect each declares or evidently uses;
 * one schema the executor cannot use (invalid in its dialect, a `$ref` to nowhere, or an `id` in
 * a later dialect) no longer fails `createExecutor`: the tool stays listed and callable, unchecked,
 * and one warning names the tool and the place inside the schema.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createExecutor, type Executor, type ExecutorPlugin } from "../../src/index.js";
import type { ToolDefinition } from "../../src/plugin.js";
import { createTempProject } from "../helpers/temp-project.js";

const DRAFT_04 = "http://json-schema.org/draft-04/schema#";
const executors: Executor[] = [];
afterEach(async () => {
  await Promise.all(executors.splice(0).map((executor) => executor.close()));
});

/** A host plugin whose tools answer with the arguments they got. */
function echoPlugin(tools: ToolDefinition[]): ExecutorPlugin {
  return { name: "echo", start: async () => ({ listTools: () => tools, callTool: async (call) => ({ ok: true, value: call.arguments }), close: async () => {} }) };
}

const tool = (name: string, inputSchema: Record<string, unknown>): ToolDefinition => ({ name, description: `${name} tool`, inputSchema });

async function executorWith(tools: ToolDefinition[]) {
  const warnings: string[] = [];
  const project = createTempProject({ tools: { tools: [] } });
  const logger = { debug() {}, info() {}, warn: (message: string) => warnings.push(message), error() {} };
  const executor = await createExecutor({ root: project.root, watch: false, logDir: false, logger, plugins: [echoPlugin(tools)] });
  executors.push(executor);
  return { executor, warnings };
}

const code = async (executor: Executor, name: string, args: object) => {
  const result = await executor.callTool(name, args);
  return result.ok ? "ok" : result.error.code;
};

describe("host plugin schemas in their own dialect", () => {
  it("validates draft-04 among many 2020-12 tools, and starts", async () => {
    const many = Array.from({ length: 50 }, (_, index) => tool(`plain_${index}`, { type: "object", properties: { n: { type: "number", exclusiveMinimum: 0 } } }));
    const draft04 = tool("legacy", { $schema: DRAFT_04, type: "object", properties: { n: { type: "number", minimum: 0, exclusiveMinimum: true } }, required: ["n"] });
    const { executor, warnings } = await executorWith([...many, draft04]);
    expect(await code(executor, "legacy", { n: 0.1 })).toBe("ok");
    expect(await code(executor, "legacy", { n: 0 })).toBe("INVALID_INPUT");
    expect(await code(executor, "plain_7", { n: 0 })).toBe("INVALID_INPUT");
    expect(await code(executor, "plain_7", { n: 1 })).toBe("ok");
    expect(warnings).toEqual([]);
  });

  it("keeps a tool whose schema is invalid in its dialect, unchecked, and names the place in the schema", async () => {
    const invalid = tool("typo", { type: "object", properties: { when: { type: "object", properties: { at: { type: "strnig" } } } } });
    const { executor, warnings } = await executorWith([tool("fine", { type: "object" }), invalid]);
    expect((await executor.listTools()).map((listed) => listed.name)).toEqual(["fine", "typo", "read_result"]);
    expect(await code(executor, "typo", { when: { at: 5 } })).toBe("ok");
    expect(warnings).toMatchInlineSnapshot(`
      [
        "Tool "typo" of plugin "echo": its inputSchema cannot be used for validation (inputSchema.properties.when.properties.at.type: must be one of "array", "boolean", "integer", "null", "number", "object", "string", got "strnig"); the tool works, but its arguments are not checked",
      ]
    `);
  });

  it("keeps a tool whose $ref leads nowhere, naming the $ref", async () => {
    const { executor, warnings } = await executorWith([tool("lost", { type: "object", properties: { a: { $ref: "#/$defs/gone" } } })]);
    expect(await code(executor, "lost", { a: 1 })).toBe("ok");
    expect(warnings).toMatchInlineSnapshot(`
      [
        "Tool "lost" of plugin "echo": its inputSchema cannot be used for validation (inputSchema.properties.a.$ref: can't resolve reference #/$defs/gone from id #); the tool works, but its arguments are not checked",
      ]
    `);
  });

  it("calls a tool whose 2020-12 schema carries an `id` (it used to fail every call with PLUGIN_FAILED)", async () => {
    const withId = tool("identified", { $schema: "https://json-schema.org/draft/2020-12/schema", id: "query", type: "object", properties: { q: { type: "string" } }, required: ["q"] });
    const { executor, warnings } = await executorWith([withId]);
    expect(await code(executor, "identified", { q: "x" })).toBe("ok");
    expect(await code(executor, "identified", {})).toBe("INVALID_INPUT");
    expect(warnings).toEqual([]);
  });

  it("lets two tools use one $id for different schemas", async () => {
    const shared = (type: string) => tool(`of_${type}`, { $id: "https://example.com/input.json", type: "object", properties: { v: { $ref: "#/$defs/v" } }, $defs: { v: { type } } });
    const { executor, warnings } = await executorWith([shared("string"), shared("number")]);
    expect([await code(executor, "of_string", { v: "a" }), await code(executor, "of_string", { v: 1 })]).toEqual(["ok", "INVALID_INPUT"]);
    expect([await code(executor, "of_number", { v: 1 }), await code(executor, "of_number", { v: "a" })]).toEqual(["ok", "INVALID_INPUT"]);
    expect(warnings).toEqual([]);
  });
});
