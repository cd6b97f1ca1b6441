/** inputSchema and outputSchema are JSON Schemas, checked against their meta-schema at load time. */
import { describe, expect, it } from "vitest";
import { loadProjectConfig } from "../../src/config.js";
import { configErrorText, loadConfigError, projectWithOneTool } from "./config-test-helpers.js";

describe("inputSchema", () => {
  it("rejects an unknown type, pointing into the schema", async () => {
    expect(await configErrorText(projectWithOneTool({ inputSchema: { type: "objekt" } }))).toMatchInlineSnapshot(`"tools.json:9:17 tools[0].inputSchema.type: Invalid JSON Schema: must be one of "array", "boolean", "integer", "null", "number", "object", "string", got "objekt""`);
  });

  it("rejects properties that is not an object", async () => {
    expect(await configErrorText(projectWithOneTool({ inputSchema: { type: "object", properties: ["path"] } }))).toMatchInlineSnapshot(`"tools.json:10:23 tools[0].inputSchema.properties: Invalid JSON Schema: must be object, got an array"`);
  });

  it("rejects required that is not an array of strings", async () => {
    expect(await configErrorText(projectWithOneTool({ inputSchema: { type: "object", required: "path" } }))).toMatchInlineSnapshot(`"tools.json:10:21 tools[0].inputSchema.required: Invalid JSON Schema: must be array, got "path""`);
  });

  it("rejects required with a non-string item", async () => {
    expect(await configErrorText(projectWithOneTool({ inputSchema: { type: "object", required: ["path", 1] } }))).toMatchInlineSnapshot(`"tools.json:12:11 tools[0].inputSchema.required[1]: Invalid JSON Schema: must be string, got 1"`);
  });

  it("rejects a bad schema nested in properties", async () => {
    const inputSchema = { type: "object", properties: { count: { type: "integer", minimum: "1" } } };
    expect(await configErrorText(projectWithOneTool({ inputSchema }))).toMatchInlineSnapshot(`"tools.json:13:24 tools[0].inputSchema.properties.count.minimum: Invalid JSON Schema: must be number, got "1""`);
  });

  it("rejects a type other than object: arguments are always an object", async () => {
    expect(await configErrorText(projectWithOneTool({ inputSchema: { type: "string" } }))).toMatchInlineSnapshot(`"tools.json:9:17 tools[0].inputSchema.type: Expected "object" (arguments are always an object), got "string""`);
  });

  it("rejects an inputSchema without a type", async () => {
    expect(await configErrorText(projectWithOneTool({ inputSchema: { properties: {} } }))).toMatchInlineSnapshot(`"tools.json:8:22 tools[0].inputSchema.type: Expected "object" (arguments are always an object), got nothing"`);
  });

  it("rejects a list of types", async () => {
    expect(await configErrorText(projectWithOneTool({ inputSchema: { type: ["object", "null"] } }))).toMatchInlineSnapshot(`"tools.json:9:17 tools[0].inputSchema.type: Expected "object" (arguments are always an object), got ["object","null"]"`);
  });

  it("reports a type the meta-schema rejects once, not twice", async () => {
    const error = await loadConfigError(projectWithOneTool({ inputSchema: { type: "objekt" } }));
    expect(error.issues.map((issue) => issue.path)).toEqual(["tools[0].inputSchema.type"]);
  });

  it("accepts a rich 2020-12 schema", async () => {
    const inputSchema = {
      type: "object",
      properties: { path: { type: "string", minLength: 1 }, rows: { type: "array", prefixItems: [{ type: "integer" }] } },
      required: ["path"],
      additionalProperties: false,
    };
    const config = await loadProjectConfig({ root: projectWithOneTool({ inputSchema }).root });
    expect(config.entries.script[0]?.inputSchema).toEqual(inputSchema);
  });

  it("accepts a draft-07 schema declared with $schema", async () => {
    const inputSchema = {
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      properties: { tags: { type: "array", items: [{ type: "string" }], additionalItems: false } },
      definitions: { name: { type: "string" } },
    };
    const config = await loadProjectConfig({ root: projectWithOneTool({ inputSchema }).root });
    expect(config.entries.script[0]?.inputSchema).toEqual(inputSchema);
  });

  it("checks a draft-07 schema against the draft-07 meta-schema", async () => {
    const inputSchema = { $schema: "http://json-schema.org/draft-07/schema#", type: "object", properties: { a: { type: "objekt" } } };
    expect(await configErrorText(projectWithOneTool({ inputSchema }))).toMatchInlineSnapshot(`"tools.json:13:21 tools[0].inputSchema.properties.a.type: Invalid JSON Schema: must be one of "array", "boolean", "integer", "null", "number", "object", "string", got "objekt""`);
  });

  it("accepts draft-04 schemas, declared or evident (boolean exclusive bounds), and checks them as draft-04", async () => {
    const declared = { $schema: "http://json-schema.org/draft-04/schema#", type: "object", properties: { n: { type: "number", minimum: 0, exclusiveMinimum: true } } };
    const evident = { type: "object", properties: { n: { type: "number", maximum: 1, exclusiveMaximum: true } } };
    for (const inputSchema of [declared, evident]) {
      const config = await loadProjectConfig({ root: projectWithOneTool({ inputSchema }).root });
      expect(config.entries.script[0]?.inputSchema).toEqual(inputSchema);
    }
    const numericIn04 = { $schema: "http://json-schema.org/draft-04/schema#", type: "object", properties: { n: { type: "number", minimum: 0, exclusiveMinimum: 0 } } };
    expect(await configErrorText(projectWithOneTool({ inputSchema: numericIn04 }))).toMatchInlineSnapshot(`"tools.json:15:33 tools[0].inputSchema.properties.n.exclusiveMinimum: Invalid JSON Schema: must be boolean, got 0"`);
  });

  it("rejects a $ref that points nowhere", async () => {
    const inputSchema = { type: "object", properties: { a: { $ref: "#/$defs/missing" } } };
    expect(await configErrorText(projectWithOneTool({ inputSchema }))).toMatchInlineSnapshot(`"tools.json:12:21 tools[0].inputSchema.properties.a.$ref: Invalid JSON Schema: can't resolve reference #/$defs/missing from id #"`);
  });
});

describe("regular expressions in schemas", () => {
  it("rejects a pattern that does not compile, pointing at it", async () => {
    expect(await configErrorText(projectWithOneTool({ inputSchema: { type: "object", properties: { code: { type: "string", pattern: "(" } } } }))).toMatchInlineSnapshot(`"tools.json:13:24 tools[0].inputSchema.properties.code.pattern: Invalid JSON Schema: "(" is not a valid regular expression (/(/u: Unterminated group)"`);
  });

  it("rejects a patternProperties key that does not compile, in an outputSchema too", async () => {
    expect(await configErrorText(projectWithOneTool({ outputSchema: { type: "object", patternProperties: { "[a-": { type: "string" } } } }))).toMatchInlineSnapshot(`"tools.json:14:18 tools[0].outputSchema.patternProperties["[a-"]: Invalid JSON Schema: "[a-" is not a valid regular expression (/[a-/u: Unterminated character class)"`);
  });

  it("reads a property named pattern, and pattern keys inside const or default, as data", async () => {
    const inputSchema = { type: "object", properties: { pattern: { type: "string", default: "(" } }, default: { pattern: "(" }, const: { pattern: "[" } };
    const config = await loadProjectConfig({ root: projectWithOneTool({ inputSchema }).root });
    expect(config.entries.script).toHaveLength(1);
  });

  it("loads a catastrophic but valid pattern without hanging", async () => {
    const config = await loadProjectConfig({ root: projectWithOneTool({ inputSchema: { type: "object", properties: { a: { type: "string", pattern: "^(a+)+$" } } } }).root });
    expect(config.entries.script).toHaveLength(1);
  });
});

describe("outputSchema", () => {
  it("rejects an invalid outputSchema", async () => {
    expect(await configErrorText(projectWithOneTool({ outputSchema: { type: "object", properties: { n: { type: 5 } } } }))).toMatchInlineSnapshot(`"tools.json:15:21 tools[0].outputSchema.properties.n.type: Invalid JSON Schema: must be one of "array", "boolean", "integer", "null", "number", "object", "string", got 5"`);
  });

  it("accepts an outputSchema of any type", async () => {
    const config = await loadProjectConfig({ root: projectWithOneTool({ outputSchema: { type: "array", items: { type: "number" } } }).root });
    expect(config.entries.script[0]?.outputSchema).toEqual({ type: "array", items: { type: "number" } });
  });

  it("leaves outputSchema out when not given", async () => {
    const config = await loadProjectConfig({ root: projectWithOneTool().root });
    expect(config.entries.script[0]).not.toHaveProperty("outputSchema");
  });

  it("reports problems of both schemas together", async () => {
    const error = await loadConfigError(projectWithOneTool({ inputSchema: { type: "object", required: "x" }, outputSchema: { type: "nope" } }));
    expect(error.issues.map((issue) => issue.path)).toEqual(["tools[0].inputSchema.required", "tools[0].outputSchema.type"]);
  });
});
