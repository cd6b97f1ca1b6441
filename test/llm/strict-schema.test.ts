/** OpenAI strict mode, keyword by keyword: what is rewritten, what is kept, and when strict is given up. */
import { describe, expect, it } from "vitest";
import { removeAddedNulls, toOpenAiChatTools, toOpenAiResponsesTools, toStrictSchema } from "../../src/llm.js";

const object = (properties: Record<string, unknown>, required: string[] = Object.keys(properties)) => ({ type: "object", properties, required });
const strict = (schema: Record<string, unknown>) => {
  const result = toStrictSchema(schema);
  if (!result.ok) throw new Error(`expected strict, got: ${result.reason}`);
  return result.schema;
};
const reason = (schema: Record<string, unknown>) => {
  const result = toStrictSchema(schema);
  return result.ok ? "strict" : result.reason;
};

describe("toStrictSchema", () => {
  it("closes every object and requires every property, optional ones made nullable", () => {
    expect(strict(object({ city: { type: "string" }, days: { type: "integer" }, unit: { enum: ["C", "F"] }, tag: { const: "x" } }, ["city"]))).toEqual({
      type: "object",
      properties: { city: { type: "string" }, days: { type: ["integer", "null"] }, unit: { enum: ["C", "F", null] }, tag: { anyOf: [{ const: "x" }, { type: "null" }] } },
      required: ["city", "days", "unit", "tag"],
      additionalProperties: false,
    });
  });

  it("closes nested objects and array items too", () => {
    const schema = strict(object({ rows: { type: "array", minItems: 1, items: object({ id: { type: "string" } }) } }));
    expect(schema.properties).toEqual({ rows: { type: "array", minItems: 1, items: { type: "object", properties: { id: { type: "string" } }, required: ["id"], additionalProperties: false } } });
  });

  it("leaves an optional property that already accepts null as it is", () => {
    expect(strict(object({ note: { type: ["string", "null"] } }, [])).properties).toEqual({ note: { type: ["string", "null"] } });
    expect(strict(object({ note: { anyOf: [{ type: "string" }, { type: "null" }] } }, [])).properties).toEqual({ note: { anyOf: [{ type: "string" }, { type: "null" }] } });
  });

  it("turns oneOf into anyOf and merges an allOf of objects", () => {
    expect(strict(object({ id: { oneOf: [{ type: "string" }, { type: "integer" }] } })).properties).toEqual({ id: { anyOf: [{ type: "string" }, { type: "integer" }] } });
    expect(strict({ allOf: [object({ a: { type: "string" } }), object({ b: { type: "number" } }, [])] })).toEqual({
      type: "object",
      properties: { a: { type: "string" }, b: { type: ["number", "null"] } },
      required: ["a", "b"],
      additionalProperties: false,
    });
  });

  it("inlines $ref and $defs", () => {
    const schema = strict({ ...object({ from: { $ref: "#/$defs/point" }, to: { $ref: "#/definitions/point" } }), $defs: { point: object({ x: { type: "number" } }) }, definitions: { point: object({ x: { type: "number" } }) } });
    expect(schema.properties).toEqual({ from: { type: "object", properties: { x: { type: "number" } }, required: ["x"], additionalProperties: false }, to: { type: "object", properties: { x: { type: "number" } }, required: ["x"], additionalProperties: false } });
    expect(schema.$defs).toBeUndefined();
  });

  it("keeps supported formats, drops the rest, and tells defaults in the description", () => {
    expect(strict(object({ at: { type: "string", format: "date-time" }, site: { type: "string", format: "uri" }, n: { type: "integer", default: 3, description: "How many." } })).properties).toEqual({
      at: { type: "string", format: "date-time" },
      site: { type: "string" },
      n: { type: "integer", description: "How many. Default: 3." },
    });
  });

  it("gives up, saying why, when the meaning cannot survive", () => {
    expect(reason(object({ tags: { type: "object", additionalProperties: { type: "string" } } }))).toMatchInlineSnapshot(`"/properties/tags allows additional properties"`);
    expect(reason(object({ anything: {} }))).toMatchInlineSnapshot(`"/properties/anything accepts any value"`);
    expect(reason(object({ list: { type: "array" } }))).toMatchInlineSnapshot(`"/properties/list is an array of any items"`);
    expect(reason(object({ n: { not: { type: "null" } } }))).toMatchInlineSnapshot(`"/properties/n uses "not""`);
    expect(reason({ type: "object" })).toMatchInlineSnapshot(`"the top level is an object with no declared properties"`);
    expect(reason({ type: "string" })).toMatchInlineSnapshot(`"the top level is not an object schema"`);
    expect(reason({ allOf: [object({ a: { type: "string" } }), object({ a: { type: "number" } })] })).toMatchInlineSnapshot(`"the top level uses "allOf" whose parts disagree on property "a""`);
  });

  it("cuts a recursive reference at a depth instead of looping", () => {
    const tree = { ...object({ name: { type: "string" }, children: { type: "array", items: { $ref: "#" } } }, ["name"]) };
    expect(reason(tree)).toMatch(/accepts any value/);
  });
});

describe("removeAddedNulls", () => {
  const schema = { type: "object", properties: { city: { type: "string" }, days: { type: "integer" }, note: { type: ["string", "null"] }, inner: object({ x: { type: "number" } }, []) }, required: ["city"] };

  it("removes the nulls strict mode added, keeps the ones the schema accepts", () => {
    expect(removeAddedNulls({ city: "Oslo", days: null, note: null, inner: { x: null } }, schema)).toEqual({ city: "Oslo", note: null, inner: {} });
  });

  it("keeps a null the model sent for a required property (the executor answers INVALID_INPUT)", () => {
    expect(removeAddedNulls({ city: null }, schema)).toEqual({ city: null });
  });
});

describe("toOpenAiChatTools and toOpenAiResponsesTools", () => {
  const tools = [
    { name: "closed", description: "A closed object.", inputSchema: object({ q: { type: "string" } }) },
    { name: "open", description: "A map.", inputSchema: object({ labels: { type: "object", additionalProperties: { type: "string" } } }) },
  ];

  it("send strict what can be, and the rest non-strict with the reason", () => {
    const chat = toOpenAiChatTools(tools);
    expect(chat.tools.map((tool) => [tool.function.name, tool.function.strict])).toEqual([
      ["closed", true],
      ["open", false],
    ]);
    expect(chat.tools[1]!.function.parameters).toEqual(tools[1]!.inputSchema);
    expect(chat.nonStrict).toEqual([{ tool: "open", reason: "/properties/labels allows additional properties" }]);
    expect(toOpenAiResponsesTools(tools).tools.map((tool) => [tool.type, tool.name, tool.strict])).toEqual([
      ["function", "closed", true],
      ["function", "open", false],
    ]);
  });

  it("never send strict with strict: false, and then keep the model's nulls", () => {
    const chat = toOpenAiChatTools(tools, { strict: false });
    expect(chat.tools.every((tool) => !tool.function.strict)).toBe(true);
    expect(chat.nonStrict).toEqual([]);
    expect(chat.mapping.restoreArguments("closed", { q: null })).toEqual({ q: null });
    expect(toOpenAiChatTools(tools).mapping.restoreArguments("closed", { q: null })).toEqual({ q: null });
  });
});
