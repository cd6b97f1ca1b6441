/**
 * Every tool schema this repository has at hand — the example project, the accepted config corpus,
 * the code_execution tool, the tools of server-everything and server-filesystem, the tests' own MCP
 * fixture servers (one sends every JSON Schema dialect), and the schemas the Python plugin derives from the tests' fixture modules (type
 * hints, TypedDict, dataclasses, enums, pydantic models, FastMCP) — converts for
 * every provider (OpenAI, Anthropic, Gemini, the AI SDK, LangChain) with none of the keywords that
 * provider documents as refused (provider-keywords.ts); the OpenAI strict schemas accept and refuse
 * the same argument examples as the originals (ajv), and the schemas the config corpus refuses
 * (reference cycles, 300 levels deep) convert without a throw.
 */
import { copyFileSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExecutor, type Executor, type JsonSchema } from "../../src/index.js";
import { codeExecutionInputSchema } from "../../src/code.js";
import { asSchema } from "ai";
import { convertToOpenAITool } from "@langchain/core/utils/function_calling";
import { removeAddedNulls, toAnthropicTools, toGeminiTools, toOpenAiChatTools, toOpenAiResponsesTools, toStrictSchema } from "../../src/llm.js";
import { toAiSdkTools } from "../../src/llm/ai-sdk.js";
import { toLangChainTools } from "../../src/llm/langchain.js";
import { GEMINI_KEYWORDS, refusedKeywords, UNSUPPORTED_KEYWORDS } from "./provider-keywords.js";
import { EVERYTHING, FIXTURES, REPOSITORY } from "../mcp/mcp-test-helpers.js";
import { PYTHON_FIXTURES } from "../python/python-test-helpers.js";
import { createTempProject } from "../helpers/temp-project.js";
import { brokenValue, sampleValue, strictForm } from "./schema-examples.js";

const require = createRequire(import.meta.url);
const Ajv2020 = require("ajv/dist/2020").default as typeof import("ajv/dist/2020.js").default;
const addFormats = require("ajv-formats").default as typeof import("ajv-formats").default;
const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
addFormats(ajv);
// As toolexec's own validators: `id` means nothing after draft-04 (a server's 2020-12 schema may still carry one).
ajv.removeKeyword("id");
const validator = (schema: JsonSchema) => {
  const { $schema: _dialect, ...rest } = schema;
  return ajv.compile(rest);
};

interface Named {
  name: string;
  description: string;
  inputSchema: JsonSchema;
}

function toolsFromConfig(file: string): Named[] {
  const text = readFileSync(file, "utf8").replace(/^\uFEFF/, "");
  const config = JSON.parse(text) as { tools?: Array<{ name?: string; description?: string; inputSchema?: unknown }> };
  return (config.tools ?? []).flatMap((tool, index) => (tool.inputSchema !== null && typeof tool.inputSchema === "object" ? [{ name: `${path.relative(REPOSITORY, file)}#${tool.name ?? index}`, description: tool.description ?? "", inputSchema: tool.inputSchema as JsonSchema }] : []));
}

const CORPUS = path.join(REPOSITORY, "test", "config", "corpus");
const accepted: Named[] = [
  ...toolsFromConfig(path.join(REPOSITORY, "tools.json")),
  ...readdirSync(path.join(CORPUS, "accepted")).filter((file) => file.endsWith(".tools.json")).flatMap((file) => toolsFromConfig(path.join(CORPUS, "accepted", file))),
  { name: "code_execution", description: "Run code.", inputSchema: codeExecutionInputSchema as JsonSchema },
];
const refused: Named[] = readdirSync(path.join(CORPUS, "tools")).flatMap((file) => {
  try {
    return toolsFromConfig(path.join(CORPUS, "tools", file));
  } catch {
    return []; // not JSON at all: nothing to convert
  }
});

const FILESYSTEM = path.join(REPOSITORY, "node_modules", "@modelcontextprotocol", "server-filesystem", "dist", "index.js");
const node = (...args: string[]) => ({ command: process.execPath, args });
/** The tests' MCP fixture servers. */
const FIXTURE_SERVERS = {
  fixture: node(path.join(FIXTURES, "stdio-server.mjs")),
  media: node(path.join(FIXTURES, "media-server.mjs")),
  dialects: node(path.join(FIXTURES, "dialects-server.mjs")),
  upstream: node(path.join(REPOSITORY, "test", "fixtures", "serve", "conformance-upstream.mjs")),
  cli: node(path.join(REPOSITORY, "test", "cli", "fixtures", "cli-server.mjs")),
};
/** Python functions whose type hints become schemas, and fixture modules whose marked functions are discovered. */
const PYTHON_FUNCTIONS = ["hinted.py:scalars", "hinted.py:containers", "hinted.py:choices", "hinted.py:structures", "hinted.py:google", "pydantic_tools.py:place_order"];
const PYTHON_MODULES = ["text_tools.py", "marked_tools.py", "fastmcp_server.py"];

let executor: Executor;
/** The tools the executor lists: the MCP servers' and the Python modules'. */
let everything: Named[] = [];
beforeAll(async () => {
  const project = createTempProject({ sharedByFile: true, tools: { tools: PYTHON_FUNCTIONS.map((entry) => ({ name: entry.split(":")[1], function: entry })), pythonModules: PYTHON_MODULES } });
  for (const name of readdirSync(PYTHON_FIXTURES)) if (name.endsWith(".py")) copyFileSync(path.join(PYTHON_FIXTURES, name), project.path(`tools/${name}`));
  project.write("mcp.json", { mcpServers: { everything: node(EVERYTHING, "stdio"), filesystem: node(FILESYSTEM, project.root), ...FIXTURE_SERVERS } });
  executor = await createExecutor({ root: project.root, watch: false, logDir: false, mcp: { startupTimeoutMs: 15_000 } });
  everything = await executor.listTools();
});
afterAll(() => executor?.close());

const GEMINI_TYPES = new Set(["STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT", "NULL"]);

/** Every keyword Gemini would refuse in a converted schema, as paths. */
function geminiProblems(node: any, at = ""): string[] {
  if (node === null || typeof node !== "object") return [`${at}: not a schema`];
  const problems = Object.keys(node).filter((key) => !GEMINI_KEYWORDS.has(key)).map((key) => `${at}/${key}`);
  if (node.type !== undefined && !GEMINI_TYPES.has(node.type)) problems.push(`${at}/type ${node.type}`);
  if (node.enum !== undefined && !node.enum.every((value: unknown) => typeof value === "string")) problems.push(`${at}/enum`);
  for (const [name, child] of Object.entries(node.properties ?? {})) problems.push(...geminiProblems(child, `${at}/properties/${name}`));
  if (node.items !== undefined) problems.push(...geminiProblems(node.items, `${at}/items`));
  (node.anyOf ?? []).forEach((child: unknown, index: number) => problems.push(...geminiProblems(child, `${at}/anyOf/${index}`)));
  return problems;
}

/** Objects that are not closed or do not require every property, as paths. */
function strictProblems(node: any, at = ""): string[] {
  if (node === null || typeof node !== "object") return [];
  const problems: string[] = [];
  if (node.properties !== undefined) {
    if (node.additionalProperties !== false) problems.push(`${at} not closed`);
    if (JSON.stringify(node.required) !== JSON.stringify(Object.keys(node.properties))) problems.push(`${at} not all required`);
  }
  for (const key of ["$ref", "$defs", "oneOf", "allOf", "not", "default"]) if (node[key] !== undefined) problems.push(`${at}/${key}`);
  for (const [name, child] of Object.entries(node.properties ?? {})) problems.push(...strictProblems(child, `${at}/properties/${name}`));
  problems.push(...strictProblems(node.items, `${at}/items`));
  (node.anyOf ?? []).forEach((child: unknown, index: number) => problems.push(...strictProblems(child, `${at}/anyOf/${index}`)));
  return problems;
}

describe("the schema corpus", () => {
  it("is not empty (the collection itself works)", () => {
    expect(accepted.length).toBeGreaterThanOrEqual(6);
    expect(everything.filter((tool) => tool.name.startsWith("everything__")).length).toBeGreaterThanOrEqual(8);
    expect(everything.filter((tool) => tool.name.startsWith("filesystem__")).length).toBeGreaterThanOrEqual(10);
    for (const server of Object.keys(FIXTURE_SERVERS)) expect(everything.some((tool) => tool.name.startsWith(`${server}__`)), server).toBe(true);
    expect(everything.map((tool) => tool.name)).toEqual(expect.arrayContaining(["upstream__json_schema_2020_12_tool", "structures", "containers", "place_order", "welcome"]));
    expect(refused.length).toBeGreaterThanOrEqual(10);
    expect(refusedKeywords({ properties: { format: { anyOf: [{ $ref: "#" }] } }, items: { format: "uri" } }, ["$ref", "format"])).toEqual(["/items/format", "/properties/format/anyOf/0/$ref"]);
  });

  it("converts for every provider into what each accepts", () => {
    const all = [...accepted, ...everything];
    const chat = toOpenAiChatTools(all);
    const strictCount = chat.tools.filter((tool) => tool.function.strict).length;
    expect(strictCount).toBeGreaterThan(all.length / 2);
    for (const tool of chat.tools) {
      expect(tool.function.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
      if (tool.function.strict) expect(strictProblems(tool.function.parameters), tool.function.name).toEqual([]);
      const refused = tool.function.strict ? UNSUPPORTED_KEYWORDS.openAiStrict : UNSUPPORTED_KEYWORDS.jsonSchema;
      expect(refusedKeywords(tool.function.parameters, refused), tool.function.name).toEqual([]);
    }
    for (const tool of toOpenAiResponsesTools(all).tools) expect(refusedKeywords(tool.parameters, tool.strict ? UNSUPPORTED_KEYWORDS.openAiStrict : UNSUPPORTED_KEYWORDS.jsonSchema), tool.name).toEqual([]);
    for (const tool of toAnthropicTools(all).tools) {
      expect(tool.input_schema.type).toBe("object");
      expect(refusedKeywords(tool.input_schema, UNSUPPORTED_KEYWORDS.jsonSchema), tool.name).toEqual([]);
    }
    for (const declaration of toGeminiTools(all).tools[0]!.functionDeclarations) {
      expect(geminiProblems(declaration.parameters), declaration.name).toEqual([]);
      expect(refusedKeywords(declaration.parameters, UNSUPPORTED_KEYWORDS.gemini), declaration.name).toEqual([]);
    }
  });

  it("converts for the AI SDK and LangChain, through their own schema handling", async () => {
    const all = [...accepted, ...everything];
    const aiSdk = Object.entries(toAiSdkTools(executor, all).tools);
    expect(aiSdk).toHaveLength(all.length);
    for (const [name, tool] of aiSdk) {
      const schema = await asSchema(tool.inputSchema).jsonSchema;
      expect(refusedKeywords(schema, UNSUPPORTED_KEYWORDS.jsonSchema), name).toEqual([]);
    }
    const langChain = toLangChainTools(executor, all).tools;
    expect(langChain).toHaveLength(all.length);
    for (const tool of langChain) {
      const { function: definition } = convertToOpenAITool(tool) as { function: { name: string; parameters: unknown } };
      expect(definition.name).toBe(tool.name);
      expect(refusedKeywords(definition.parameters, UNSUPPORTED_KEYWORDS.jsonSchema), tool.name).toEqual([]);
    }
  });

  it("OpenAI strict schemas accept and refuse the same examples as the originals", () => {
    let checked = 0;
    for (const tool of [...accepted, ...everything]) {
      const strict = toStrictSchema(tool.inputSchema);
      if (!strict.ok) continue;
      const original = validator(tool.inputSchema);
      const converted = validator(strict.schema);
      for (const example of [sampleValue(tool.inputSchema, false), sampleValue(tool.inputSchema, true)]) {
        if (!original(example)) continue;
        const sent = strictForm(example, strict.schema);
        expect(converted(sent), `${tool.name}: ${JSON.stringify(sent)}`).toBe(true);
        expect(original(removeAddedNulls(sent, tool.inputSchema)), `${tool.name} restored`).toBe(true);
        const broken = brokenValue(example, tool.inputSchema);
        expect(original(broken), `${tool.name} broken`).toBe(false);
        expect(converted(strictForm(broken, strict.schema)), `${tool.name} broken, strict`).toBe(false);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(10);
  });

  it("converts the schemas the config refuses without throwing", () => {
    expect(() => toOpenAiChatTools(refused)).not.toThrow();
    expect(() => toAnthropicTools(refused)).not.toThrow();
    expect(() => toGeminiTools(refused)).not.toThrow();
    expect(() => toAiSdkTools(executor, refused)).not.toThrow();
    expect(() => toLangChainTools(executor, refused)).not.toThrow();
  });
});
