/**
 * Tools from a real stdio MCP server whose input schemas are written in every JSON Schema dialect
 * (test/fixtures/mcp/dialects-server.mjs): each is listed, accepts valid arguments and refuses
 * invalid ones as its own dialect says (draft-04's `exclusiveMinimum: true` refuses the bound,
 * 2020-12's numeric one too), and `listTools` shows each as its draft 2020-12 equivalent. A schema
 * no validator can use (unknown `$schema`, invalid in its dialect, a `$ref` to nowhere) leaves its
 * tool listed and callable, unchecked, with one warning naming the place in the schema.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, describe, expect, it } from "vitest";
import type { Executor } from "../../src/index.js";
import { schemaDialect } from "../../src/core/schema/schema-dialect.js";
import { findSchemaProblems } from "../../src/core/schema/schema-validator.js";
import { EVERYTHING, FIXTURES, REPOSITORY, openProject } from "./mcp-test-helpers.js";

const DIALECTS_SERVER = { command: process.execPath, args: [path.join(FIXTURES, "dialects-server.mjs")] };

function warnings() {
  const seen: string[] = [];
  return { seen, logger: { debug() {}, info() {}, warn: (message: string) => seen.push(message), error() {} } };
}

async function openDialects() {
  const { seen, logger } = warnings();
  const { executor } = await openProject({ mcpServers: { dialects: DIALECTS_SERVER } }, { logger });
  return { executor, seen };
}

/** The call's outcome: the arguments the server received, or the error code. */
async function outcome(executor: Executor, tool: string, args: object): Promise<unknown> {
  const result = await executor.callTool(`dialects__${tool}`, args);
  return result.ok ? (result.value as { received: unknown }).received : result.error.code;
}

describe("MCP tools in every JSON Schema dialect", () => {
  it("lists every tool, whatever its dialect and whether or not its schema can be used", async () => {
    const { executor } = await openDialects();
    expect((await executor.listTools()).map((tool) => tool.name).sort()).toEqual(
      [
        "draft04_declared", "draft04_evident", "legacy_id", "id_in_2020", "draft06_declared", "draft07_declared", "draft07_evident",
        "draft2019_declared", "draft2020_declared", "odd_dialect", "invalid_in_its_dialect", "unresolved_reference",
      ].map((name) => `dialects__${name}`).concat("read_result").sort(),
    );
  });

  it("accepts valid arguments and refuses invalid ones in each tool's own dialect", async () => {
    const { executor } = await openDialects();
    const cases: Array<[tool: string, args: object, expected: unknown]> = [
      // draft-04: exclusiveMinimum true with minimum 0 refuses 0 itself.
      ["draft04_declared", { count: 0.5 }, { count: 0.5 }],
      ["draft04_declared", { count: 0 }, "INVALID_INPUT"],
      ["draft04_declared", { count: 1, extra: true }, "INVALID_INPUT"],
      ["draft04_evident", { ratio: 0.99 }, { ratio: 0.99 }],
      ["draft04_evident", { ratio: 1 }, "INVALID_INPUT"],
      ["legacy_id", { fallback: { field: "name" } }, { fallback: { field: "name" } }],
      ["legacy_id", { fallback: {} }, "INVALID_INPUT"],
      ["draft06_declared", { mode: "fast", size: 1 }, { mode: "fast", size: 1 }],
      ["draft06_declared", { size: 0 }, "INVALID_INPUT"],
      ["draft06_declared", { Mode: "fast" }, "INVALID_INPUT"],
      ["draft07_declared", { pair: ["a", 1], unit: "m" }, { pair: ["a", 1], unit: "m" }],
      ["draft07_declared", { pair: ["a", "b"] }, "INVALID_INPUT"],
      ["draft07_declared", { pair: ["a", 1, 2] }, "INVALID_INPUT"],
      ["draft07_declared", { pair: ["a", 1], unit: "kg" }, "INVALID_INPUT"],
      ["draft07_evident", { point: [1, 2] }, { point: [1, 2] }],
      ["draft07_evident", { point: [1, "2"] }, "INVALID_INPUT"],
      ["draft2019_declared", { low: 1, high: 2 }, { low: 1, high: 2 }],
      ["draft2019_declared", { high: 2 }, "INVALID_INPUT"],
      ["draft2019_declared", { low: 1, other: 2 }, "INVALID_INPUT"],
      // 2020-12: numeric exclusiveMinimum refuses 0; prefixItems with items false closes the tuple.
      ["draft2020_declared", { count: 1, pair: ["a", 1] }, { count: 1, pair: ["a", 1] }],
      ["draft2020_declared", { count: 0 }, "INVALID_INPUT"],
      ["draft2020_declared", { count: 1, pair: ["a", 1, 2] }, "INVALID_INPUT"],
    ];
    const seen = [];
    for (const [tool, args] of cases) seen.push([tool, args, await outcome(executor, tool, args)]);
    expect(seen).toEqual(cases);
  });

  it("calls tools whose schemas use `id` (they were listed, and every call failed with PLUGIN_FAILED)", async () => {
    const { executor, seen } = await openDialects();
    expect(await executor.callTool("dialects__legacy_id", { filter: { field: "a" } })).toMatchObject({ ok: true, value: { received: { filter: { field: "a" } } } });
    expect(await executor.callTool("dialects__id_in_2020", { q: "a" })).toMatchObject({ ok: true, value: { received: { q: "a" } } });
    expect(await executor.callTool("dialects__id_in_2020", {})).toMatchObject({ ok: false, error: { code: "INVALID_INPUT", message: 'Invalid arguments for "dialects__id_in_2020": arguments: missing required property "q"' } });
    expect(seen.filter((message) => message.includes("_id"))).toEqual([]);
  });

  it("words a refusal as the dialect's rule says, naming the argument", async () => {
    const { executor } = await openDialects();
    const result = await executor.callTool("dialects__draft04_declared", { count: 0 });
    expect(!result.ok && result.error.message).toMatchInlineSnapshot(`"Invalid arguments for "dialects__draft04_declared": count: must be > 0"`);
  });

  it("keeps a tool whose schema cannot be used callable and unchecked, with one warning naming the place", async () => {
    const { executor, seen } = await openDialects();
    for (const tool of ["odd_dialect", "invalid_in_its_dialect", "unresolved_reference"]) {
      expect(await outcome(executor, tool, { n: "not a number" })).toEqual({ n: "not a number" });
      expect(await outcome(executor, tool, { n: "again" })).toEqual({ n: "again" });
    }
    expect(seen).toMatchInlineSnapshot(`
      [
        "Tool "dialects__odd_dialect" of plugin "mcp" (server "dialects"): its inputSchema cannot be used for validation (inputSchema.$schema: unknown $schema "https://example.com/schemas/odd-dialect"; name one of draft-04, draft-06, draft-07, 2019-09 or 2020-12 (json-schema.org URIs), or leave $schema out); the tool works, but its arguments are not checked",
        "Tool "dialects__invalid_in_its_dialect" of plugin "mcp" (server "dialects"): its inputSchema cannot be used for validation (inputSchema.properties.n.exclusiveMinimum: must be number, got true); the tool works, but its arguments are not checked",
        "Tool "dialects__unresolved_reference" of plugin "mcp" (server "dialects"): its inputSchema cannot be used for validation (inputSchema.properties.n.$ref: can't resolve reference #/$defs/missing from id #); the tool works, but its arguments are not checked",
      ]
    `);
  });

  it("shows each schema as its draft 2020-12 equivalent in listTools", async () => {
    const { executor } = await openDialects();
    const listed = new Map((await executor.listTools()).map((tool) => [tool.name.replace("dialects__", ""), tool.inputSchema]));
    expect(listed.get("draft04_declared")).toEqual({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      $id: "urn:dialects:draft04",
      type: "object",
      properties: { count: { $ref: "#/$defs/positive" }, label: { type: "string" } },
      required: ["count"],
      additionalProperties: false,
      $defs: { positive: { type: "number", exclusiveMinimum: 0 } },
    });
    expect(listed.get("draft04_evident")).toEqual({ type: "object", properties: { ratio: { type: "number", minimum: 0, exclusiveMaximum: 1 } }, required: ["ratio"] });
    expect(listed.get("draft07_declared")).toMatchObject({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      properties: { pair: { type: "array", prefixItems: [{ type: "string" }, { type: "integer" }], items: false }, unit: { $ref: "#/$defs/unit" } },
      $defs: { unit: { enum: ["m", "s"] } },
    });
    expect(listed.get("draft07_evident")).toEqual({ type: "object", properties: { point: { type: "array", prefixItems: [{ type: "number" }, { type: "number" }], minItems: 2 } }, required: ["point"] });
    // Already 2020-12: shown as the server sent it.
    expect(listed.get("draft2020_declared")).toMatchObject({ properties: { count: { exclusiveMinimum: 0 } } });
  });
});

const FILESYSTEM = path.join(REPOSITORY, "node_modules", "@modelcontextprotocol", "server-filesystem", "dist", "index.js");

/** The tool names a server lists, asked directly with the SDK's client. */
async function rawToolNames(args: string[]): Promise<string[]> {
  const client = new Client({ name: "probe", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command: process.execPath, args, stderr: "ignore" }));
  try {
    return (await client.listTools()).tools.map((tool) => tool.name);
  } finally {
    await client.close();
  }
}

describe("schemas of real npm MCP servers (server-everything, server-filesystem)", () => {
  const folder = mkdtempSync(path.join(os.tmpdir(), "toolexec-dialects-"));
  writeFileSync(path.join(folder, "note.txt"), "hello\n");
  afterAll(() => rmSync(folder, { recursive: true, force: true }));
  const servers = { everything: [EVERYTHING, "stdio"], filesystem: [FILESYSTEM, folder] };

  it("lists every tool they list, each schema shown as valid draft 2020-12, with no warning", async () => {
    const { seen, logger } = warnings();
    const { executor } = await openProject({ mcpServers: Object.fromEntries(Object.entries(servers).map(([name, args]) => [name, { command: process.execPath, args }])) }, { logger, mcp: { startupTimeoutMs: 15_000 } });
    const listed = await executor.listTools();
    for (const [name, args] of Object.entries(servers)) {
      const raw = await rawToolNames(args);
      expect(raw.length, name).toBeGreaterThan(5);
      expect(listed.filter((tool) => tool.name.startsWith(`${name}__`)).map((tool) => tool.name).sort()).toEqual(raw.map((tool) => `${name}__${tool}`).sort());
    }
    for (const tool of listed) {
      for (const schema of [tool.inputSchema, ...(tool.outputSchema ? [tool.outputSchema] : [])]) {
        expect(schemaDialect(schema), tool.name).toBe("2020-12");
        expect(schema.$schema === undefined || schema.$schema === "https://json-schema.org/draft/2020-12/schema", tool.name).toBe(true);
        expect(findSchemaProblems(schema), tool.name).toEqual([]);
      }
    }
    expect(seen.filter((message) => message.includes("Schema"))).toEqual([]);

    // Validated as the servers declare them (draft-07): valid arguments reach the server, others do not.
    expect(await executor.callTool("everything__echo", { message: "hi" })).toMatchObject({ ok: true });
    expect(await executor.callTool("everything__echo", { message: 1 })).toMatchObject({ ok: false, error: { code: "INVALID_INPUT" } });
    const read = await executor.callTool("filesystem__read_text_file", { path: path.join(folder, "note.txt") });
    expect(read).toMatchObject({ ok: true });
    expect(await executor.callTool("filesystem__read_text_file", { head: 1 })).toMatchObject({ ok: false, error: { code: "INVALID_INPUT", message: expect.stringContaining('missing required property "path"') } });
  });
});
