/** The published tools.json JSON Schema: never stale, accepts the bundled example, rejects unknown keys. */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { builtInToolsConfigSchema } from "../../src/load-project-config.js";

const require = createRequire(import.meta.url);
const Ajv2020 = require("ajv/dist/2020").default as typeof import("ajv/dist/2020.js").default;

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const schemaFile = path.join(repositoryRoot, "schema", "tools.schema.json");
const readJson = (file: string) => JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;

// A computed specifier keeps tsc from looking for types of the plain .mjs script.
const generatorUrl = pathToFileURL(path.join(repositoryRoot, "scripts", "generate-schema.mjs")).href;
const { renderToolsJsonSchema } = (await import(generatorUrl)) as { renderToolsJsonSchema(schema: z.ZodType): string };

function compileToolsSchema() {
  // strict: an unknown keyword or a malformed schema fails the compile instead of being ignored.
  return new Ajv2020({ strict: true, allErrors: true }).compile(readJson(schemaFile));
}

describe("schema/tools.schema.json", () => {
  it("equals the schema generated from tools.json's zod schema and the built-in plugins' keys (run `npm run build && npm run schema` if not)", async () => {
    expect(readFileSync(schemaFile, "utf8")).toBe(renderToolsJsonSchema(await builtInToolsConfigSchema()));
  });

  it("is a draft 2020-12 schema with an $id, title and description", () => {
    const schema = readJson(schemaFile);
    expect(schema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
    expect(schema).toMatchObject({ $id: expect.any(String), title: expect.any(String), description: expect.any(String) });
  });

  it("accepts the bundled tools.json", () => {
    const validate = compileToolsSchema();
    const valid = validate(readJson(path.join(repositoryRoot, "tools.json")));
    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
  });

  it("rejects an unknown key at the top level, in defaults, in a tool and in its annotations", () => {
    const validate = compileToolsSchema();
    const example = readJson(path.join(repositoryRoot, "tools.json")) as { tools: Array<Record<string, unknown>> };
    const variants = [
      { ...example, tool: [] },
      { ...example, defaults: { timeout: 1000 } },
      { ...example, tools: [{ ...example.tools[0], timeout: 1000 }] },
      { ...example, tools: [{ ...example.tools[0], annotations: { readOnly: true } }] },
    ];
    for (const variant of variants) {
      expect(validate(variant)).toBe(false);
      expect(validate.errors?.map((error) => error.keyword)).toContain("additionalProperties");
    }
  });

  it("rejects what the loader rejects: a bad runtime, a zero timeout, a name with __", () => {
    const validate = compileToolsSchema();
    const tool = { name: "echo", description: "Echo", runtime: "python", script: "echo.py", inputSchema: { type: "object" } };
    expect(validate({ tools: [tool] })).toBe(true);
    expect(validate({ tools: [{ ...tool, runtime: "ruby" }] })).toBe(false);
    expect(validate({ tools: [{ ...tool, timeoutMs: 0 }] })).toBe(false);
    expect(validate({ tools: [{ ...tool, name: "a__b" }] })).toBe(false);
    expect(validate({ defaults: {} })).toBe(false);
  });
});
