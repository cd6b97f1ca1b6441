/**
 * What an MCP client of `serve` sees of a tool whose schemas are written in an older dialect: their
 * draft 2020-12 equivalents (MCP's default dialect), while the executor still validates the
 * arguments as the tool's own dialect says.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { createExecutor, type Executor, type ExecutorPlugin } from "../../src/index.js";
import { serveHttp, type HttpServing } from "../../src/serve.js";
import { createTempProject } from "../helpers/temp-project.js";
import { httpClient, silentLogger } from "./serve-test-helpers.js";

const DRAFT_04 = "http://json-schema.org/draft-04/schema#";
const legacy: ExecutorPlugin = {
  name: "legacy",
  start: async () => ({
    listTools: () => [
      {
        name: "weigh",
        description: "Weigh something heavier than nothing.",
        inputSchema: { $schema: DRAFT_04, type: "object", properties: { grams: { $ref: "#/definitions/positive" } }, required: ["grams"], definitions: { positive: { type: "number", minimum: 0, exclusiveMinimum: true } } },
        outputSchema: { $schema: DRAFT_04, type: "object", properties: { pair: { type: "array", items: [{ type: "string" }, { type: "number" }] } } },
      },
    ],
    callTool: async (call) => ({ ok: true, value: { pair: ["grams", call.arguments.grams as number] } }),
    close: async () => {},
  }),
};

let executor: Executor;
let serving: HttpServing;
let client: Client;
beforeAll(async () => {
  const project = createTempProject({ sharedByFile: true, tools: { tools: [] } });
  executor = await createExecutor({ root: project.root, logDir: false, watch: false, mcpConfig: false, logger: silentLogger, plugins: [legacy] });
  serving = await serveHttp(executor);
  client = await httpClient(serving.url);
});
afterAll(async () => {
  await client?.close();
  await serving?.close();
  await executor?.close();
});

it("lists the draft 2020-12 equivalents of a draft-04 tool's schemas", async () => {
  const { tools } = await client.listTools();
  const weigh = tools.find((tool) => tool.name === "weigh")!;
  expect(weigh.inputSchema).toEqual({
    $schema: "https://json-schema.org/draft/2020-12/schema",
    type: "object",
    properties: { grams: { $ref: "#/$defs/positive" } },
    required: ["grams"],
    $defs: { positive: { type: "number", exclusiveMinimum: 0 } },
  });
  expect(weigh.outputSchema).toEqual({ $schema: "https://json-schema.org/draft/2020-12/schema", type: "object", properties: { pair: { type: "array", prefixItems: [{ type: "string" }, { type: "number" }] } } });
});

it("validates the arguments in the tool's own dialect", async () => {
  expect(await client.callTool({ name: "weigh", arguments: { grams: 2 } })).toMatchObject({ structuredContent: { pair: ["grams", 2] } });
  expect(await client.callTool({ name: "weigh", arguments: { grams: 0 } })).toMatchObject({ isError: true, content: [{ type: "text", text: 'INVALID_INPUT: Invalid arguments for "weigh": grams: must be > 0' }] });
});
