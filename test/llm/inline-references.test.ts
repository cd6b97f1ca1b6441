/** `$ref` inlining: local pointers, data left alone, recursion cut, unresolvable references, the node budget. */
import { describe, expect, it } from "vitest";
import { inlineReferences, MAX_INLINED_NODES } from "../../src/llm.js";

describe("inlineReferences", () => {
  it("inlines $defs, definitions and escaped pointers, keeping sibling keywords", () => {
    expect(
      inlineReferences({
        type: "object",
        properties: { a: { $ref: "#/$defs/a~1b", description: "Here." }, c: { $ref: "#/definitions/c" } },
        $defs: { "a/b": { type: "string" } },
        definitions: { c: { type: "integer" } },
      }),
    ).toEqual({ type: "object", properties: { a: { type: "string", description: "Here." }, c: { type: "integer" } } });
  });

  it("leaves data alone and treats property names as names", () => {
    const schema = { type: "object", properties: { default: { type: "string" }, const: { $ref: "#/$defs/n" } }, default: { $ref: "not a reference" }, $defs: { n: { type: "number" } } };
    expect(inlineReferences(schema)).toEqual({ type: "object", properties: { default: { type: "string" }, const: { type: "number" } }, default: { $ref: "not a reference" } });
  });

  it("says so for a reference it cannot resolve", () => {
    expect(inlineReferences({ type: "object", properties: { a: { $ref: "https://example.test/schema.json" }, b: { $ref: "#/$defs/missing" } } })).toEqual({
      type: "object",
      properties: { a: { description: "(unresolved reference https://example.test/schema.json)" }, b: { description: "(unresolved reference #/$defs/missing)" } },
    });
  });

  it("cuts mutual recursion at a depth", () => {
    const inlined = inlineReferences({ $ref: "#/$defs/a", $defs: { a: { type: "object", properties: { b: { $ref: "#/$defs/b" } } }, b: { type: "object", properties: { a: { $ref: "#/$defs/a" } } } } });
    expect(JSON.stringify(inlined)).toMatchInlineSnapshot(`"{"type":"object","properties":{"b":{"type":"object","properties":{"a":{"type":"object","properties":{"b":{"type":"object","properties":{"a":{"type":"object","properties":{"b":{"type":"object","properties":{"a":{"description":"(a recursive schema, not expanded further)"}}}}}}}}}}}}}"`);
  });

  it("stops expanding once references multiply past the node budget", () => {
    // Each definition refers to the next one ten times: 10^6 nodes if expanded in full.
    const $defs = Object.fromEntries(Array.from({ length: 6 }, (_, index) => [`d${index}`, { type: "object", properties: Object.fromEntries(Array.from({ length: 10 }, (__, key) => [`k${key}`, index === 5 ? { type: "string" } : { $ref: `#/$defs/d${index + 1}` }])) }]));
    const inlined = inlineReferences({ $ref: "#/$defs/d0", $defs });
    expect(JSON.stringify(inlined).length).toBeLessThan(MAX_INLINED_NODES * 100);
    expect(JSON.stringify(inlined)).toContain("not expanded further");
  });
});
