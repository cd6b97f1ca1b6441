/**
 * The adapters show providers draft 2020-12 schemas whatever dialect a tool's schema is written in,
 * also for tools that do not come from `listTools` (which already converts): draft-04's boolean
 * `exclusiveMinimum` would read as garbage, its `definitions` would not be inlined.
 */
import { describe, expect, it } from "vitest";
import type { ToolInfo } from "../../src/index.js";
import { toAnthropicTools, toOpenAiChatTools } from "../../src/llm.js";

const draft04: ToolInfo = {
  name: "weigh",
  description: "Weigh something.",
  inputSchema: {
    $schema: "http://json-schema.org/draft-04/schema#",
    type: "object",
    properties: { grams: { $ref: "#/definitions/positive" }, pair: { type: "array", items: [{ type: "string" }, { type: "number" }] } },
    required: ["grams"],
    definitions: { positive: { type: "number", minimum: 0, exclusiveMinimum: true } },
  },
};

describe("LLM adapters and schema dialects", () => {
  it("convert a draft-04 schema to its 2020-12 equivalent before shaping it for the provider", () => {
    const expected = {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: { grams: { type: "number", exclusiveMinimum: 0 }, pair: { type: "array", prefixItems: [{ type: "string" }, { type: "number" }] } },
      required: ["grams"],
    };
    expect(toAnthropicTools([draft04]).tools[0]!.input_schema).toEqual(expected);
    expect(toOpenAiChatTools([draft04], { strict: false }).tools[0]!.function.parameters).toEqual(expected);
  });

  it("leave a 2020-12 tool as it is", () => {
    const current: ToolInfo = { name: "plain", description: "d", inputSchema: { type: "object", properties: { n: { type: "number", exclusiveMinimum: 0 } } } };
    expect(toAnthropicTools([current]).tools[0]!.input_schema).toEqual(current.inputSchema);
  });
});
