/**
 * JSON Schema dialects: which one a schema is in (declared, or evident from its keywords), that it
 * is validated as that dialect says (with linear-time patterns in every dialect), and that its
 * draft 2020-12 equivalent (`toDraft2020Schema`) accepts and refuses exactly what the original does.
 */
import { describe, expect, it } from "vitest";
import { schemaDialect } from "../../src/core/schema/schema-dialect.js";
import { checkSchema, compileSchema, findSchemaProblems } from "../../src/core/schema/schema-validator.js";
import { toDraft2020Schema } from "../../src/core/schema/to-draft-2020-schema.js";

const DRAFT_04 = "http://json-schema.org/draft-04/schema#";
const DRAFT_06 = "http://json-schema.org/draft-06/schema#";
const DRAFT_07 = "http://json-schema.org/draft-07/schema#";
const DRAFT_2019 = "https://json-schema.org/draft/2019-09/schema";
const DRAFT_2020 = "https://json-schema.org/draft/2020-12/schema";

describe("schemaDialect", () => {
  it("takes the declared dialect, in any of its spellings", () => {
    expect(schemaDialect({ $schema: DRAFT_04 })).toBe("draft-04");
    expect(schemaDialect({ $schema: "http://json-schema.org/draft-04/schema" })).toBe("draft-04");
    expect(schemaDialect({ $schema: DRAFT_06 })).toBe("draft-06");
    expect(schemaDialect({ $schema: "https://json-schema.org/draft-07/schema#" })).toBe("draft-07");
    expect(schemaDialect({ $schema: DRAFT_2019 })).toBe("2019-09");
    expect(schemaDialect({ $schema: `${DRAFT_2020}#` })).toBe("2020-12");
    // Declared wins over evidence: a draft-07 schema with a boolean bound is an invalid draft-07 schema.
    expect(schemaDialect({ $schema: DRAFT_07, exclusiveMinimum: true })).toBe("draft-07");
    expect(schemaDialect({ $schema: "http://json-schema.org/draft-03/schema#" })).toBeUndefined();
    expect(schemaDialect({ $schema: 4 })).toBeUndefined();
  });

  it("reads the dialect off the keywords when none is declared", () => {
    expect(schemaDialect({ type: "object" })).toBe("2020-12");
    expect(schemaDialect({ properties: { n: { minimum: 0, exclusiveMinimum: true } } })).toBe("draft-04");
    expect(schemaDialect({ properties: { n: { exclusiveMaximum: false } }, $defs: {} })).toBe("draft-04");
    expect(schemaDialect({ id: "urn:x", properties: { a: { type: "string" } } })).toBe("draft-04");
    expect(schemaDialect({ properties: { id: { type: "string" } } })).toBe("2020-12");
    expect(schemaDialect({ properties: { pair: { items: [{}, {}] } } })).toBe("draft-07");
    expect(schemaDialect({ properties: { pair: { items: [{}, {}] } }, $defs: {} })).toBe("2019-09");
    expect(schemaDialect({ $recursiveAnchor: true })).toBe("2019-09");
    expect(schemaDialect({ prefixItems: [{}] })).toBe("2020-12");
    // Data is not a schema: an enum of objects with boolean bounds says nothing.
    expect(schemaDialect({ enum: [{ exclusiveMinimum: true }], default: { items: [] } })).toBe("2020-12");
  });
});

describe("validation in the schema's own dialect", () => {
  it("checks each schema against its own dialect's meta-schema", () => {
    expect(checkSchema({ $schema: DRAFT_04, type: "number", minimum: 0, exclusiveMinimum: true })).toEqual([]);
    expect(checkSchema({ type: "number", minimum: 0, exclusiveMinimum: true })).toEqual([]);
    expect(checkSchema({ $schema: DRAFT_06, type: "object", properties: { a: { const: 1 } } })).toEqual([]);
    expect(checkSchema({ $schema: DRAFT_2019, type: "array", items: [{ type: "string" }] })).toEqual([]);
    expect(findSchemaProblems({ $schema: DRAFT_07, type: "number", exclusiveMinimum: true })).toEqual([{ path: ["exclusiveMinimum"], message: "must be number" }]);
    expect(findSchemaProblems({ $schema: DRAFT_04, type: "number", minimum: 0, exclusiveMinimum: 1 })).toEqual([{ path: ["exclusiveMinimum"], message: "must be boolean" }]);
    expect(findSchemaProblems({ $schema: DRAFT_2020, type: "array", items: [{ type: "string" }] })).not.toEqual([]);
  });

  it("refuses the bound as each dialect says", () => {
    const draft04 = compileSchema({ $schema: DRAFT_04, type: "number", minimum: 0, exclusiveMinimum: true });
    const evident04 = compileSchema({ type: "number", minimum: 0, exclusiveMinimum: true });
    const draft2020 = compileSchema({ type: "number", exclusiveMinimum: 0 });
    for (const validate of [draft04, evident04, draft2020]) {
      expect(validate(0)).toEqual([{ path: [], message: "must be > 0" }]);
      expect(validate(0.001)).toEqual([]);
    }
  });

  it("compiles `id` as draft-04's identifier, and ignores it in later dialects", () => {
    expect(compileSchema({ $schema: DRAFT_2020, id: "query", type: "object", required: ["q"] })({})).toHaveLength(1);
    expect(compileSchema({ $schema: DRAFT_07, id: "query", type: "string" })("x")).toEqual([]);
    const byId = compileSchema({ id: "urn:example:a", properties: { b: { id: "urn:example:b", type: "string" }, c: { $ref: "urn:example:b" } } });
    expect([byId({ c: "x" }), byId({ c: 1 })].map((problems) => problems.length)).toEqual([0, 1]);
  });

  it("runs patterns on the linear engine in every dialect", () => {
    const evil = "^(a+)+$";
    const input = `${"a".repeat(5_000)}!`;
    for (const dialect of [DRAFT_04, DRAFT_06, DRAFT_07, DRAFT_2019, DRAFT_2020]) {
      const validate = compileSchema({ $schema: dialect, type: "object", properties: { s: { type: "string", pattern: evil } }, patternProperties: { [evil]: { type: "string" } } });
      const started = performance.now();
      expect(validate({ s: input, [input]: "x" })).toHaveLength(1);
      // Backtracking would take longer than the age of the universe; linear takes well under a second.
      expect(performance.now() - started).toBeLessThan(1_000);
    }
  });
});

describe("toDraft2020Schema", () => {
  it("converts draft-04: id, definitions and the references to them, boolean bounds, dependencies", () => {
    const schema = {
      $schema: DRAFT_04,
      id: "urn:example#root",
      type: "object",
      properties: {
        count: { $ref: "#/definitions/positive" },
        definitions: { $ref: "#/properties/count" },
        ratio: { type: "number", maximum: 1, exclusiveMaximum: true, minimum: 0, exclusiveMinimum: false },
        loose: { type: "number", exclusiveMinimum: true },
        nested: { $ref: "#/definitions/outer/definitions/inner" },
      },
      dependencies: { a: ["b"], c: { required: ["d"] } },
      definitions: { positive: { type: "number", minimum: 0, exclusiveMinimum: true }, outer: { definitions: { inner: { id: "#inner", type: "string" } } } },
    };
    expect(toDraft2020Schema(schema)).toEqual({
      $schema: DRAFT_2020,
      $id: "urn:example",
      $anchor: "root",
      type: "object",
      properties: {
        count: { $ref: "#/$defs/positive" },
        definitions: { $ref: "#/properties/count" },
        ratio: { type: "number", exclusiveMaximum: 1, minimum: 0 },
        loose: { type: "number" },
        nested: { $ref: "#/$defs/outer/$defs/inner" },
      },
      dependentRequired: { a: ["b"] },
      dependentSchemas: { c: { required: ["d"] } },
      $defs: { positive: { type: "number", exclusiveMinimum: 0 }, outer: { $defs: { inner: { $anchor: "inner", type: "string" } } } },
    });
  });

  it("converts draft-06/07: tuple items, references, id (meaningless there)", () => {
    const schema = {
      $schema: DRAFT_07,
      id: "ignored",
      type: "object",
      properties: { pair: { items: [{ type: "string" }, { type: "integer" }], additionalItems: false }, one: { items: { type: "string" }, additionalItems: false }, unit: { $ref: "#/definitions/unit", type: "number", description: "kept" }, first: { $ref: "#/properties/pair/items/0" } },
      definitions: { unit: { enum: ["m"] } },
    };
    expect(toDraft2020Schema(schema)).toEqual({
      $schema: DRAFT_2020,
      type: "object",
      properties: { pair: { prefixItems: [{ type: "string" }, { type: "integer" }], items: false }, one: { items: { type: "string" } }, unit: { $ref: "#/$defs/unit", type: "number", description: "kept" }, first: { $ref: "#/properties/pair/prefixItems/0" } },
      $defs: { unit: { enum: ["m"] } },
    });
  });

  it("reads boolean bounds as draft-04's even where a later dialect is declared (they are invalid there)", () => {
    expect(toDraft2020Schema({ $schema: DRAFT_07, type: "number", minimum: 0, exclusiveMinimum: true })).toEqual({ $schema: DRAFT_2020, type: "number", exclusiveMinimum: 0 });
  });

  it("converts 2019-09's recursive references to dynamic ones", () => {
    const schema = { $schema: DRAFT_2019, $recursiveAnchor: true, type: "object", additionalProperties: { $recursiveRef: "#" } };
    expect(toDraft2020Schema(schema)).toEqual({ $schema: DRAFT_2020, $dynamicAnchor: "recursive", type: "object", additionalProperties: { $dynamicRef: "#recursive" } });
  });

  it("returns a 2020-12 schema, or one of an unknown dialect, as it is, and its own results unchanged", () => {
    const current = { type: "object", properties: { a: { $ref: "#/$defs/a" } }, $defs: { a: { type: "string" } } };
    const unknown = { $schema: "https://example.com/dialect", type: "object" };
    expect(toDraft2020Schema(current)).toBe(current);
    expect(toDraft2020Schema(unknown)).toBe(unknown);
    const converted = toDraft2020Schema({ $schema: DRAFT_04, type: "object", properties: { n: { minimum: 1, exclusiveMinimum: true } } });
    expect(toDraft2020Schema(converted)).toBe(converted);
  });

  it("accepts and refuses the same values as the original in its own dialect", () => {
    const cases: Array<[Record<string, unknown>, unknown[]]> = [
      [{ $schema: DRAFT_04, type: "number", minimum: 0, exclusiveMinimum: true, maximum: 10, exclusiveMaximum: false }, [0, 0.1, 10, 10.1, -1]],
      [{ type: "object", properties: { n: { minimum: 2, exclusiveMinimum: true } }, definitions: { unused: {} } }, [{ n: 2 }, { n: 3 }, {}]],
      [{ $schema: DRAFT_04, id: "urn:example:q", properties: { a: { $ref: "#/definitions/a" } }, definitions: { a: { type: "string" } } }, [{ a: "x" }, { a: 1 }]],
      [{ $schema: DRAFT_07, items: [{ type: "string" }], additionalItems: { type: "number" } }, [["a"], ["a", 1], ["a", "b"], [1]]],
      [{ $schema: DRAFT_07, properties: { a: { $ref: "#/definitions/a", type: "number" } }, definitions: { a: { type: "string" } } }, [{ a: "x" }, { a: 1 }]],
      [{ $schema: DRAFT_06, dependencies: { a: ["b"], c: { required: ["d"] } } }, [{ a: 1 }, { a: 1, b: 2 }, { c: 1 }, { c: 1, d: 1 }]],
      [{ $schema: DRAFT_2019, $recursiveAnchor: true, type: "object", additionalProperties: { $recursiveRef: "#" } }, [{ a: {} }, { a: 1 }, { a: { b: 2 } }]],
      [{ $schema: DRAFT_2019, items: [{ type: "string" }], additionalItems: false, $defs: {} }, [["a"], ["a", "b"]]],
    ];
    for (const [schema, values] of cases) {
      const original = compileSchema(schema);
      const converted = compileSchema(toDraft2020Schema(schema));
      for (const value of values) expect(converted(value).length === 0, `${JSON.stringify(schema)} on ${JSON.stringify(value)}`).toBe(original(value).length === 0);
    }
  });
});
