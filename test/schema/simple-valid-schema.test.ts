/**
 * The fast schema check (`isSimpleValidSchema`) may only ever say "valid" where the full checks
 * agree: ajv against the meta-schema of the schema's dialect (references resolved), the pattern
 * compile walk, and the linear-engine walk. When it says "ask", those checks run and word every
 * problem, so a schema's messages cannot differ; what must never happen is a fast "valid" for a
 * schema the full checks refuse. Each keyword is tried with many values, at the root and nested,
 * under every dialect ajv is set up for.
 */
import { describe, expect, it } from "vitest";
import { checkSchemaPatterns } from "../../src/core/schema/check-schema-patterns.js";
import { checkToolSchema } from "../../src/core/schema/check-tool-schema.js";
import { findUncheckedPatterns } from "../../src/core/schema/find-unchecked-patterns.js";
import { isSimpleValidSchema } from "../../src/core/schema/is-simple-valid-schema.js";
import { findSchemaProblems } from "../../src/core/schema/schema-validator.js";
import { findFastPathOverreach } from "../helpers/fast-path-overreach.js";

type Schema = Record<string, unknown>;

const DIALECTS = [
  undefined,
  "https://json-schema.org/draft/2020-12/schema",
  "https://json-schema.org/draft/2019-09/schema",
  "http://json-schema.org/draft-07/schema#",
  "http://json-schema.org/draft-07/schema",
  "http://json-schema.org/draft-06/schema#",
  "http://json-schema.org/draft-04/schema#",
  "https://example.com/my-dialect",
];

/** The keywords the fast check knows, and some it must leave to ajv. */
const KEYWORDS = [
  "type", "properties", "required", "additionalProperties", "items", "propertyNames", "contains", "not", "if", "then", "else",
  "anyOf", "allOf", "oneOf", "enum", "const", "default", "examples", "title", "description", "$comment", "format", "pattern",
  "contentMediaType", "contentEncoding", "minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties",
  "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "uniqueItems", "readOnly", "writeOnly", "deprecated",
  "$ref", "$defs", "definitions", "$id", "$anchor", "$schema", "patternProperties", "prefixItems", "dependentRequired",
  "dependentSchemas", "unevaluatedProperties", "maxContains", "minContains", "x-vendor",
];

const VALUES: unknown[] = [
  true, false, null, 0, -0, 1, -1, 1.5, 0.1, 1e300, -1e300, 2 ** 53, "", "x", "string", "object", "integer", "nope",
  "(", "^a$", "^[\\w .,:-]+$", "(?=a)b", "(a)\\1", "a{2000}", "\\p{Foo}", "[", "#", "https://example.com/x",
  [], [1], [1, 1], [1, 1.0], [0, -0], ["a"], ["a", "a"], ["a", "b"], ["string"], ["string", "string"], ["string", "null"], ["nope"],
  [{}], [true], [{ type: "string" }], [{ type: "nope" }], [{ $ref: "#" }], [[1], [1]], [{ a: 1 }, { a: 1 }], [null], ["a", 1],
  {}, { type: "string" }, { type: "nope" }, { $ref: "#" }, { $ref: "#/nowhere" }, { $dynamicRef: "#meta" }, { a: { type: "string" } },
  { a: 1 }, { a: { $ref: "#/nowhere" } }, { $ref: { type: "string" } }, { pattern: "(" }, { type: "string", pattern: "(?=x)" },
  { items: [{}] }, { minLength: -1 }, { enum: [] }, { "x-vendor": true }, { properties: { $ref: {} } },
];

/** `keyword: value` at the root, inside a property, and inside `items`, under each dialect. */
function* candidateSchemas(): Generator<Schema> {
  for (const dialect of DIALECTS) {
    const root = dialect === undefined ? {} : { $schema: dialect };
    for (const keyword of KEYWORDS) {
      for (const value of VALUES) {
        yield { ...root, type: "object", [keyword]: value };
        yield { ...root, type: "object", properties: { q: { type: "string", [keyword]: value } } };
        yield { ...root, type: "array", items: { [keyword]: value } };
      }
    }
  }
}

/** What the full checks say, without the fast path. */
function fullCheckRefusal(schema: Schema): string | undefined {
  const problems = [...findSchemaProblems(schema), ...checkSchemaPatterns(schema), ...findUncheckedPatterns(schema)];
  return problems.length === 0 ? undefined : JSON.stringify(problems);
}

describe("isSimpleValidSchema", () => {
  it("says valid only for schemas the full checks find nothing wrong with", () => {
    const { vouched, wrong } = findFastPathOverreach(candidateSchemas(), isSimpleValidSchema, fullCheckRefusal);
    expect(wrong).toEqual([]);
    // Not vacuous: the check vouches for thousands of the candidates.
    expect(vouched).toBeGreaterThan(5_000);
  });

  it("vouches for the schemas tools usually declare, in every dialect ajv knows", () => {
    const typical = {
      type: "object",
      properties: {
        query: { type: "string", minLength: 1, maxLength: 200, pattern: "^[\\w .,:-]+$", description: "Text to search for." },
        mode: { type: "string", enum: ["fast", "thorough"], default: "fast" },
        limit: { type: "integer", minimum: 1, maximum: 100 },
        tags: { type: "array", items: { type: "string" }, uniqueItems: true },
        filter: { anyOf: [{ type: "null" }, { type: "object", additionalProperties: { type: "string" } }] },
      },
      required: ["query"],
      additionalProperties: false,
    };
    for (const dialect of DIALECTS.slice(0, 5)) {
      expect(isSimpleValidSchema(dialect === undefined ? typical : { $schema: dialect, ...typical })).toBe(true);
    }
  });

  it("leaves references, unknown keywords, unknown dialects and bad patterns to the full checks", () => {
    for (const schema of [
      { type: "object", properties: { a: { $ref: "#/$defs/a" } }, $defs: { a: {} } },
      { type: "object", "x-vendor": 1 },
      { $schema: "http://json-schema.org/draft-04/schema#", type: "object" },
      { type: "object", properties: { a: { $schema: "https://json-schema.org/draft/2020-12/schema" } } },
      { type: "object", properties: { a: { type: "string", pattern: "(" } } },
      { type: "object", properties: { a: { type: "string", pattern: "^(?=.*\\d)" } } },
      { type: "object", default: { $ref: "#/nowhere" } },
    ]) {
      expect(isSimpleValidSchema(schema), JSON.stringify(schema)).toBe(false);
    }
  });

  it("leaves tools.json's schema messages as the full checks word them", () => {
    // The fast path skips only checks that would find nothing; a faulty schema gets every message.
    expect(checkToolSchema("inputSchema", { type: "object", properties: { a: { type: "string", pattern: "(", minLength: -1 } } })).toMatchInlineSnapshot(`
      [
        {
          "message": "Invalid JSON Schema: must be >= 0, got -1",
          "path": [
            "properties",
            "a",
            "minLength",
          ],
        },
      ]
    `);
    expect(checkToolSchema("inputSchema", { type: "array", items: { type: "string", pattern: "(?=x)" } })).toMatchInlineSnapshot(`
      [
        {
          "message": "pattern "(?=x)" cannot be checked in linear time: lookahead (?= or (?! is not supported; rewrite it without lookaround, backreferences or counts above 1000",
          "path": [
            "items",
            "pattern",
          ],
        },
        {
          "message": "Expected "object" (arguments are always an object), got "array"",
          "path": [
            "type",
          ],
        },
      ]
    `);
  });
});
