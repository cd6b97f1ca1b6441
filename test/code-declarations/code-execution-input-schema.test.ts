/** The code_execution input schema accepts the documented shape and nothing else. */
import { describe, expect, it } from "vitest";
import { checkSchema, compileSchema } from "../../src/core/schema/schema-validator.js";
import { codeExecutionInputSchema } from "../../src/plugins/code/declarations/code-execution-input-schema.js";

describe("codeExecutionInputSchema", () => {
  const validate = compileSchema(codeExecutionInputSchema);

  it("is a valid JSON Schema", () => {
    expect(checkSchema(codeExecutionInputSchema)).toEqual([]);
  });

  it("accepts code alone, any input, and every option", () => {
    expect(validate({ code: "1 + 1" })).toEqual([]);
    expect(validate({ code: "input", input: [1, { a: null }] })).toEqual([]);
    expect(validate({ code: "input", input: null, options: { timeout_ms: 500, max_tool_calls: 0, allowed_servers: [] } })).toEqual([]);
  });

  it("rejects missing or empty code, unknown keys and out-of-range options", () => {
    expect(validate({}).map((problem) => problem.message)).toMatchInlineSnapshot(`
      [
        "missing required property "code"",
      ]
    `);
    expect(validate({ code: "" }).length).toBeGreaterThan(0);
    expect(validate({ code: "1", extra: true }).length).toBeGreaterThan(0);
    expect(validate({ code: "1", options: { timeout_ms: 0, max_tool_calls: -1, allowed_servers: ["a", "a"], retries: 1 } }).map((problem) => problem.path.join("."))).toMatchInlineSnapshot(`
      [
        "options",
        "options.timeout_ms",
        "options.max_tool_calls",
        "options.allowed_servers",
      ]
    `);
  });

  it("is frozen all the way down, since every executor shares it", () => {
    expect(Object.isFrozen(codeExecutionInputSchema)).toBe(true);
    expect(Object.isFrozen((codeExecutionInputSchema.properties as { options: { properties: object } }).options.properties)).toBe(true);
  });
});
