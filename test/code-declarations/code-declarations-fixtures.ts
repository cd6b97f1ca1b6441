/** Tools to generate declarations from: the repository's own tools.json, the built-in human tool, and hostile ones. */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { PluginContext, ToolDefinition } from "../../src/core/plugin-contract.js";
import { humanInputPlugin } from "../../src/plugins/human/human-input-plugin.js";

const REPOSITORY_ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

/** The tools of the bundled tools.json, as the script plugin lists them. */
export function bundledTools(): ToolDefinition[] {
  const file = JSON.parse(readFileSync(path.join(REPOSITORY_ROOT, "tools.json"), "utf8")) as { tools: ToolDefinition[] };
  return file.tools.map(({ name, description, inputSchema, outputSchema, annotations }) => ({
    name,
    description,
    inputSchema,
    ...(outputSchema ? { outputSchema } : {}),
    ...(annotations ? { annotations } : {}),
  }));
}

/** `request_human_input`, as its plugin lists it. */
export async function humanTool(): Promise<ToolDefinition> {
  const instance = await humanInputPlugin(() => "yes").start([], {} as PluginContext);
  const [definition] = instance.listTools();
  await instance.close();
  return definition!;
}

/**
 * A tool with only the parts declarations read. A name with `__` stands for an MCP server's tool,
 * and gets the `server` the MCP plugin would give it (`github__create_issue` → github, create_issue).
 */
export function tool(name: string, inputSchema: Record<string, unknown>, outputSchema?: Record<string, unknown>, description = `The ${name} tool.`): ToolDefinition {
  const separator = name.indexOf("__");
  const server = separator > 0 ? { server: { name: name.slice(0, separator), tool: name.slice(separator + 2) } } : {};
  return { name, description, inputSchema, ...(outputSchema ? { outputSchema } : {}), ...server };
}

/** Names, keys, literals and comments chosen to break naive generated TypeScript. */
export function trickyTools(): ToolDefinition[] {
  const tree = {
    type: "object",
    properties: {
      root: { $ref: "#/$defs/tree-node" },
      forest: { type: "array", items: { type: "array", items: { $ref: "#/$defs/tree-node" } } },
      parity: { $ref: "#/$defs/even" },
      lists: { $ref: "#/$defs/list" },
    },
    required: ["root"],
    $defs: {
      "tree-node": {
        type: "object",
        description: "A node and its children.",
        properties: { label: { type: ["string", "null"] }, children: { type: "array", items: { $ref: "#/$defs/tree-node" } } },
        required: ["label"],
      },
      even: { type: "object", properties: { next: { $ref: "#/$defs/odd" } } },
      odd: { type: "object", properties: { next: { $ref: "#/$defs/even" } } },
      list: { type: "array", items: { $ref: "#/$defs/list" } },
    },
  };
  return [
    tool("tree__walk", tree, { type: "object", properties: { self: { $ref: "#" }, depth: { type: "integer" } } }, "Walk a tree. Ends */ here? /* no."),
    tool("loops__alias", {
      type: "object",
      properties: { self: { $ref: "#/$defs/self" }, either: { $ref: "#/$defs/either" }, json: { $ref: "#/$defs/json" }, ping: { $ref: "#/$defs/ping" } },
      $defs: {
        self: { $ref: "#/$defs/self" },
        either: { anyOf: [{ $ref: "#/$defs/either" }, { type: "string" }] },
        json: {
          anyOf: [
            { type: ["string", "number", "boolean", "null"] },
            { type: "array", items: { $ref: "#/$defs/json" } },
            { type: "object", additionalProperties: { $ref: "#/$defs/json" } },
          ],
        },
        ping: { oneOf: [{ $ref: "#/$defs/pong" }, { type: "number" }] },
        pong: { allOf: [{ $ref: "#/$defs/ping" }] },
      },
    }),
    tool("csv-summary", { type: "object", properties: { path: { type: "string" } }, required: ["path"] }),
    tool("my.tool", { type: "object" }),
    tool("constructor", { type: "object", properties: { toString: { type: "string" } } }),
    tool("my-server__get-item", {
      type: "object",
      properties: {
        "content-type": { type: "string", description: "Header */ value" },
        "2fa": { type: "boolean" },
        "with space": { type: "number" },
        'quote"d': { type: "string" },
        default: { type: "string", default: "*/" },
        class: { const: 'say "hi"' },
      },
      required: ["content-type"],
      additionalProperties: { type: "number" },
    }),
    tool("1password__lookup", {
      type: "object",
      properties: {
        quotes: { enum: ['say "hi"', "it's", "back\\slash", "*/", "line\nbreak", 3, true, null] },
        matrix: { type: "array", items: { type: "array", items: { type: "array", prefixItems: [{ type: "number" }, { type: "string" }], minItems: 2, items: false } } },
        either: { oneOf: [{ type: "string", format: "uri" }, { type: "array", items: { anyOf: [{ type: "integer" }, { type: "null" }] } }] },
        both: { allOf: [{ type: "object", properties: { a: { type: "string" } } }, { type: "object", properties: { b: { type: "number" } }, required: ["b"] }] },
        missing: { $ref: "#/$defs/nowhere" },
        remote: { $ref: "https://example.com/schema.json" },
        never: false,
        anything: true,
        legacy: { type: "string", nullable: true },
        countries: { enum: Array.from({ length: 60 }, (_, index) => `C${index}`) },
        tags: { type: "object", patternProperties: { "^x-": { type: "string" } }, additionalProperties: false },
      },
    }),
  ];
}
