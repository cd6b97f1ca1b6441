/** JSON Schema → TypeScript text, one schema feature per case. */
import { describe, expect, it } from "vitest";
import { createNamedTypes } from "../../src/plugins/code/declarations/named-types.js";
import { schemaToTypeScript } from "../../src/plugins/code/declarations/schema-to-typescript.js";

const convert = (schema: unknown) => schemaToTypeScript(schema);

describe("schemaToTypeScript", () => {
  it("maps the primitive types, integer as number with a hint", () => {
    expect(["string", "number", "integer", "boolean", "null"].map((type) => convert({ type }))).toEqual(["string", "number", "number", "boolean", "null"]);
    expect(convert({})).toBe("unknown");
    expect(convert(true)).toBe("unknown");
    expect(convert(false)).toBe("never");
    expect(convert({ type: "mystery" })).toBe("unknown");
  });

  it("marks required and optional properties and keeps small objects on one line", () => {
    expect(convert({ type: "object", properties: { id: { type: "string" }, count: { type: "number" } }, required: ["id"] })).toMatchInlineSnapshot(`"{ id: string; count?: number }"`);
  });

  it("turns descriptions and constraints into doc comments", () => {
    expect(
      convert({
        type: "object",
        properties: {
          precision: { type: "integer", minimum: 0, maximum: 12, description: "Decimal places (default 6)." },
          ratio: { type: "number", exclusiveMinimum: 0, exclusiveMaximum: 1, multipleOf: 0.05 },
          code: { type: "string", pattern: "^[A-Z]{3}$", minLength: 3, maxLength: 3, examples: ["EUR"] },
          when: { type: "string", format: "date-time", description: "Start time" },
          mode: { enum: ["fast", "safe"], default: "safe", deprecated: true },
          urls: { type: "array", items: { type: "string", format: "uri" }, minItems: 1, maxItems: 5, uniqueItems: true },
        },
      }),
    ).toMatchInlineSnapshot(`
      "{
        /** Decimal places (default 6). Integer, minimum 0, maximum 12. */
        precision?: number;
        /** Greater than 0, less than 1, multiple of 0.05. */
        ratio?: number;
        /** Minimum length 3, maximum length 3, pattern \`^[A-Z]{3}$\`, example "EUR". */
        code?: string;
        /** Start time. Format date-time. */
        when?: string;
        /** Default "safe", deprecated. */
        mode?: "fast" | "safe";
        /** At least 1 item, at most 5 items, unique items, each item: format uri. */
        urls?: string[];
      }"
    `);
  });

  it("describes the rest of an object: typed, open, closed or by pattern", () => {
    expect(convert({ type: "object", additionalProperties: { type: "number" } })).toMatchInlineSnapshot(`"{ [key: string]: number }"`);
    expect(convert({ type: "object" })).toMatchInlineSnapshot(`"{ [key: string]: unknown }"`);
    expect(convert({ type: "object", additionalProperties: false })).toMatchInlineSnapshot(`"{}"`);
    expect(convert({ type: "object", patternProperties: { "^x-": { type: "string" } } })).toMatchInlineSnapshot(`"{ [key: string]: string }"`);
    // TypeScript needs every named property to fit the index type, which a schema does not promise.
    expect(convert({ type: "object", properties: { name: { type: "string" } }, additionalProperties: { type: "number" } })).toMatchInlineSnapshot(`
      "{
        name?: string;
        /** Any other key holds: number */
        [key: string]: unknown;
      }"
    `);
    expect(convert({ type: "object", required: ["id"], additionalProperties: { type: "string" } })).toMatchInlineSnapshot(`
      "{
        id: string;
        /** Any other key holds: string */
        [key: string]: unknown;
      }"
    `);
  });

  it("turns arrays and tuples of both drafts into TypeScript arrays and tuples", () => {
    expect(convert({ type: "array", items: { type: "string" } })).toBe("string[]");
    expect(convert({ type: "array" })).toBe("unknown[]");
    expect(convert({ type: "array", items: { type: ["string", "number"] } })).toBe("(string | number)[]");
    expect(convert({ type: "array", items: { type: "array", items: { type: "array", items: { type: "boolean" } } } })).toBe("boolean[][][]");
    expect(convert({ type: "array", prefixItems: [{ type: "number" }, { type: "number" }], minItems: 2, items: false })).toBe("[number, number]");
    expect(convert({ type: "array", prefixItems: [{ type: "number" }, { type: "string" }], minItems: 1, items: { type: "boolean" } })).toBe(
      "[number, string?, ...boolean[]]",
    );
    expect(convert({ type: "array", items: [{ type: "string" }], additionalItems: false, minItems: 1 })).toBe("[string]");
    expect(convert({ type: "array", prefixItems: [{ type: "string" }], maxItems: 1 })).toBe("[string?]");
    expect(convert({ type: "array", prefixItems: [{ type: "string" }], minItems: 1 })).toBe("[string, ...unknown[]]");
  });

  it("turns enum and const into literal unions, escaping quotes", () => {
    expect(convert({ enum: ["a", 'say "hi"', "back\\slash", 2, true, null] })).toBe('"a" | "say \\"hi\\"" | "back\\\\slash" | 2 | true | null');
    expect(convert({ const: "fixed" })).toBe('"fixed"');
    expect(convert({ type: "string", enum: ["x"] })).toBe('"x"');
    // No literal type exists for objects: the whole union widens honestly.
    expect(convert({ enum: ["a", { b: 1 }] })).toBe("unknown");
  });

  it("keeps long enums short: the base type and a few values in a comment", () => {
    expect(convert({ enum: Array.from({ length: 51 }, (_, index) => `v${index}`) })).toMatchInlineSnapshot(`"string /* one of 51 values: "v0", "v1", "v2", "v3", "v4", … */"`);
    expect(convert({ enum: [...Array.from({ length: 60 }, (_, index) => index), "other"] })).toMatchInlineSnapshot(`"number | string /* one of 61 values: 0, 1, 2, 3, 4, … */"`);
  });

  it("turns oneOf and anyOf into unions and allOf into intersections", () => {
    expect(convert({ oneOf: [{ type: "string" }, { type: "number" }] })).toBe("string | number");
    expect(convert({ anyOf: [{ type: "string" }, { type: "string" }] })).toBe("string");
    expect(convert({ anyOf: [{ type: "string" }, {}] })).toBe("unknown");
    expect(convert({ allOf: [{ type: "object", properties: { a: { type: "string" } } }, { type: "object", properties: { b: { type: "number" } } }] })).toBe(
      "{ a?: string } & { b?: number }",
    );
    expect(convert({ allOf: [{ anyOf: [{ type: "string" }, { type: "number" }] }, { type: "string" }] })).toBe("(string | number) & string");
    // Base keywords beside a union of literals add nothing.
    expect(convert({ type: "string", oneOf: [{ const: "a" }, { const: "b" }] })).toBe('"a" | "b"');
    // Variants that only require keys sharpen the base object.
    expect(convert({ type: "object", properties: { a: { type: "string" }, b: { type: "string" } }, oneOf: [{ required: ["a"] }, { required: ["b"] }] })).toBe(
      "{ a?: string; b?: string } & ({ a: unknown } | { b: unknown })",
    );
  });

  it("writes nullable types from type lists and from OpenAPI's nullable", () => {
    expect(convert({ type: ["string", "null"] })).toBe("string | null");
    expect(convert({ type: ["object", "null"], properties: { a: { type: "number" } } })).toBe("{ a?: number } | null");
    expect(convert({ type: "integer", nullable: true })).toBe("number | null");
    expect(convert({ type: "array", items: { type: ["string", "null"] } })).toBe("(string | null)[]");
  });

  it("quotes property names that are not identifiers", () => {
    expect(
      convert({ type: "object", properties: { "content-type": { type: "string" }, "2fa": { type: "boolean" }, 'quote"d': { type: "string" }, $ok: {}, class: {} } }),
    ).toMatchInlineSnapshot(`
      "{
        "content-type"?: string;
        "2fa"?: boolean;
        "quote\\"d"?: string;
        $ok?: unknown;
        class?: unknown;
      }"
    `);
  });

  it("cannot be ended early by */ in descriptions, defaults or patterns", () => {
    const text = convert({
      type: "object",
      properties: { a: { type: "string", description: "ends */ here", default: "*/", pattern: "a*/b" } },
    });
    expect(text).toMatchInlineSnapshot(`
      "{
        /** ends *\\/ here. Pattern \`a*\\/b\`, default "*\\/". */
        a?: string;
      }"
    `);
    expect(text.match(/\*\//g)).toHaveLength(1);
  });

  it("inlines $refs to $defs and definitions, and documents a property through its target", () => {
    expect(
      convert({
        type: "object",
        properties: { from: { $ref: "#/$defs/point" }, to: { $ref: "#/definitions/point" } },
        $defs: { point: { type: "object", description: "A point.", properties: { x: { type: "number" }, y: { type: "number" } }, required: ["x", "y"] } },
        definitions: { point: { $ref: "#/$defs/point" } },
      }),
    ).toMatchInlineSnapshot(`
      "{
        /** A point. */
        from?: { x: number; y: number };
        /** A point. */
        to?: { x: number; y: number };
      }"
    `);
  });

  it("makes unresolvable references unknown: other documents, anchors, missing targets", () => {
    expect(convert({ $ref: "https://example.com/schema.json" })).toBe("unknown");
    expect(convert({ $ref: "#anchor" })).toBe("unknown");
    expect(convert({ $ref: "#/$defs/missing" })).toBe("unknown");
    expect(convert({ $ref: "#/$defs/a%20b", $defs: { "a b": { type: "string" } } })).toBe("string");
    expect(convert({ $ref: "#/$defs/a~1b", $defs: { "a/b": { type: "number" } } })).toBe("number");
  });

  it("names recursive targets in a namespace, mutual recursion and self-reference of the root included", () => {
    const namedTypes = createNamedTypes();
    const type = schemaToTypeScript(
      {
        type: "object",
        properties: { tree: { $ref: "#/$defs/node" }, ping: { $ref: "#/$defs/ping" }, again: { $ref: "#" } },
        $defs: {
          node: { type: "object", properties: { children: { type: "array", items: { $ref: "#/$defs/node" } } } },
          ping: { type: "object", properties: { pong: { type: "object", properties: { ping: { $ref: "#/$defs/ping" } } } } },
        },
      },
      { namedTypes, rootName: "Walk arguments" },
    );
    expect(type).toBe("ToolSchemas.WalkArguments");
    expect(namedTypes.render()).toMatchInlineSnapshot(`
      "/** Types that refer to themselves, named so that they can. */
      declare namespace ToolSchemas {
        export type Node = { children?: ToolSchemas.Node[] };
        export type Ping = { pong?: { ping?: ToolSchemas.Ping } };
        export type WalkArguments = {
          tree?: ToolSchemas.Node;
          ping?: ToolSchemas.Ping;
          again?: ToolSchemas.WalkArguments;
        };
      }
      "
    `);
  });

  it("makes a reference unknown where TypeScript forbids the recursion: outside any object or array", () => {
    const namedTypes = createNamedTypes();
    const type = schemaToTypeScript(
      {
        type: "object",
        properties: { self: { $ref: "#/$defs/self" }, either: { $ref: "#/$defs/either" }, json: { $ref: "#/$defs/json" }, ping: { $ref: "#/$defs/ping" } },
        $defs: {
          self: { $ref: "#/$defs/self" },
          either: { anyOf: [{ $ref: "#/$defs/either" }, { type: "string" }] },
          json: { anyOf: [{ type: ["string", "null"] }, { type: "array", items: { $ref: "#/$defs/json" } }, { type: "object", additionalProperties: { $ref: "#/$defs/json" } }] },
          ping: { oneOf: [{ $ref: "#/$defs/pong" }, { type: "number" }] },
          pong: { allOf: [{ $ref: "#/$defs/ping" }] },
        },
      },
      { namedTypes },
    );
    expect(type).toMatchInlineSnapshot(`
      "{
        self?: ToolSchemas.Self;
        either?: ToolSchemas.Either;
        json?: ToolSchemas.Json;
        ping?: ToolSchemas.Ping;
      }"
    `);
    expect(namedTypes.render()).toMatchInlineSnapshot(`
      "/** Types that refer to themselves, named so that they can. */
      declare namespace ToolSchemas {
        export type Self = unknown;
        export type Either = unknown;
        export type Json = string | null | ToolSchemas.Json[] | { [key: string]: ToolSchemas.Json };
        export type Ping = unknown;
      }
      "
    `);
  });

  it("makes recursion unknown without a place to name types", () => {
    expect(convert({ type: "object", properties: { next: { $ref: "#" } } })).toBe("{ next?: unknown }");
  });

  it("keeps two tools' same-named definitions apart", () => {
    const namedTypes = createNamedTypes();
    const recursive = () => ({ $ref: "#/$defs/node", $defs: { node: { type: "array", items: { $ref: "#/$defs/node" } } } });
    expect([schemaToTypeScript(recursive(), { namedTypes }), schemaToTypeScript(recursive(), { namedTypes })]).toEqual(["ToolSchemas.Node", "ToolSchemas.Node2"]);
  });

  it("cuts nesting deeper than maxDepth to unknown and can leave out doc comments", () => {
    const nested = { type: "object", properties: { a: { type: "object", description: "A.", properties: { b: { type: "object", properties: { c: { type: "string" } } } } } } };
    expect(schemaToTypeScript(nested, { maxDepth: 2, documentation: false })).toBe("{ a?: { b?: { c?: unknown } } }");
    expect(schemaToTypeScript(nested, { maxDepth: 1, documentation: false })).toBe("{ a?: { b?: unknown } }");
    expect(schemaToTypeScript(nested, { maxDepth: 0 })).toBe("{\n  /** A. */\n  a?: unknown;\n}");
  });
});
