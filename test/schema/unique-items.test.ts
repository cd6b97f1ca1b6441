/** `uniqueItems` answers as JSON Schema says, in linear time (ajv's pairwise check was quadratic). */
import { describe, expect, it } from "vitest";
import { compileSchema, formatSchemaProblems } from "../../src/core/schema/schema-validator.js";

const validate = compileSchema({ type: "object", properties: { items: { type: "array", uniqueItems: true } } });
const problemsOf = (items: unknown[]) => formatSchemaProblems(validate({ items }));

describe("uniqueItems", () => {
  it("finds duplicates as JSON Schema defines equality", () => {
    expect(problemsOf([{ a: 1, b: [1, "x"] }, { b: [1, "x"], a: 1 }])).toMatchInlineSnapshot(`"items: must NOT have duplicate items (items ## 0 and 1 are identical)"`);
    expect(problemsOf([1, 1.0])).not.toBe("");
    expect(problemsOf([0, -0])).not.toBe("");
    expect(problemsOf([1, "1", true, null, [1], { "1": 1 }, [[1]], { a: null }, { a: "null" }])).toBe("");
    expect(problemsOf([[1, 2], [2, 1], { a: { b: 1 } }, { a: { b: 2 } }])).toBe("");
    expect(problemsOf(["a", "b", "a"])).toMatchInlineSnapshot(`"items: must NOT have duplicate items (items ## 0 and 2 are identical)"`);
    expect(compileSchema({ type: "object", properties: { items: { type: "array", uniqueItems: false } } })({ items: [1, 1] })).toEqual([]);
  });

  it("checks 20,000 objects in linear time (ajv's pairwise check took 20.7 s)", () => {
    const items = Array.from({ length: 20_000 }, (_, index) => ({ id: index, name: `item ${index}`, tags: ["a", "b"] }));
    const started = performance.now();
    expect(problemsOf(items)).toBe("");
    expect(problemsOf([...items, { tags: ["a", "b"], name: "item 7", id: 7 }])).toMatchInlineSnapshot(`"items: must NOT have duplicate items (items ## 7 and 20000 are identical)"`);
    // A bound far under the pairwise check's 20 s, with a margin for a busy machine.
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});
