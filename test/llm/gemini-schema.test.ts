/** Gemini's OpenAPI subset, keyword by keyword. */
import { describe, expect, it } from "vitest";
import { toGeminiSchema, toGeminiTools } from "../../src/llm.js";

describe("toGeminiSchema", () => {
  it("upper-cases types and keeps properties, required, items and bounds (counts as strings)", () => {
    expect(toGeminiSchema({ type: "object", properties: { tags: { type: "array", items: { type: "string", minLength: 1 }, maxItems: 5 }, n: { type: "integer", minimum: 0, maximum: 9 } }, required: ["tags", "missing"] })).toEqual({
      type: "OBJECT",
      properties: { tags: { type: "ARRAY", items: { type: "STRING", minLength: "1" }, maxItems: "5" }, n: { type: "INTEGER", minimum: 0, maximum: 9 } },
      required: ["tags"],
    });
  });

  it("says nullable instead of a null type or a null alternative", () => {
    expect(toGeminiSchema({ type: ["string", "null"] })).toEqual({ type: "STRING", nullable: true });
    expect(toGeminiSchema({ anyOf: [{ type: "number" }, { type: "null" }] })).toEqual({ type: "NUMBER", nullable: true });
    expect(toGeminiSchema({ enum: ["a", null] })).toEqual({ type: "STRING", enum: ["a"], nullable: true });
  });

  it("keeps string enums, turns const into a one-value enum, and tells other values in the description", () => {
    expect(toGeminiSchema({ enum: ["C", "F"] })).toEqual({ type: "STRING", enum: ["C", "F"] });
    expect(toGeminiSchema({ const: "v1" })).toEqual({ type: "STRING", enum: ["v1"] });
    expect(toGeminiSchema({ enum: [1, 2, 3], description: "Level." })).toEqual({ type: "INTEGER", description: "Level. One of: 1, 2, 3." });
  });

  it("turns oneOf into anyOf, several types into anyOf, and merges allOf", () => {
    expect(toGeminiSchema({ oneOf: [{ type: "string" }, { type: "integer" }] })).toEqual({ anyOf: [{ type: "STRING" }, { type: "INTEGER" }] });
    expect(toGeminiSchema({ type: ["string", "integer"] })).toEqual({ anyOf: [{ type: "STRING" }, { type: "INTEGER" }] });
    expect(toGeminiSchema({ allOf: [{ type: "object", properties: { a: { type: "string" } }, required: ["a"] }, { properties: { b: { type: "boolean" } } }] })).toEqual({
      type: "OBJECT",
      properties: { a: { type: "STRING" }, b: { type: "BOOLEAN" } },
      required: ["a"],
    });
  });

  it("drops what Gemini refuses: additionalProperties, $schema, unknown formats; keeps default and the first example", () => {
    expect(toGeminiSchema({ $schema: "https://json-schema.org/draft/2020-12/schema", type: "object", additionalProperties: false, properties: { at: { type: "string", format: "date-time" }, url: { type: "string", format: "uri", default: "https://x.test", examples: ["https://y.test"] } } })).toEqual({
      type: "OBJECT",
      properties: { at: { type: "STRING", format: "date-time" }, url: { type: "STRING", default: "https://x.test", example: "https://y.test" } },
    });
  });

  it("inlines references and cuts a recursive one", () => {
    const tree = { type: "object", properties: { name: { type: "string" }, children: { type: "array", items: { $ref: "#" } } } };
    const converted = toGeminiSchema(tree);
    expect(JSON.stringify(converted)).not.toContain("$ref");
    let depth = 0;
    for (let node: any = converted; node?.properties?.children; node = node.properties.children.items) depth += 1;
    expect(depth).toBe(4);
  });
});

describe("toGeminiTools", () => {
  it("puts every declaration in one tool, and nothing for no tools", () => {
    const { tools, mapping } = toGeminiTools([{ name: "9lives", description: "d", inputSchema: { type: "object", properties: {} } }]);
    expect(tools).toEqual([{ functionDeclarations: [{ name: mapping.toProvider("9lives"), description: "d", parameters: { type: "OBJECT", properties: {} } }] }]);
    expect(mapping.toProvider("9lives")).toMatch(/^_9lives_[0-9a-f]{8}$/);
    expect(toGeminiTools([]).tools).toEqual([]);
  });
});
