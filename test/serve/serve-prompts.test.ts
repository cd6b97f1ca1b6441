/** Upstream prompts and resource templates, through the executor and served over HTTP; prompt names follow the tools' prefix rule. */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createExecutor, type Executor } from "../../src/index.js";
import { serveHttp, type HttpServing } from "../../src/serve.js";
import { createTempProject } from "../helpers/temp-project.js";
import { httpClient, silentLogger } from "./serve-test-helpers.js";

const UPSTREAM = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "fixtures", "serve", "conformance-upstream.mjs");

let executor: Executor;
let serving: HttpServing;
beforeAll(async () => {
  const project = createTempProject({
    tools: { tools: [] },
    mcp: { mcpServers: { up: { command: process.execPath, args: [UPSTREAM] }, plain: { command: process.execPath, args: [UPSTREAM], prefix: false } } },
  });
  executor = await createExecutor({ root: project.root, logDir: false, watch: false, logger: silentLogger });
  serving = await serveHttp(executor);
});
afterAll(async () => {
  await serving?.close();
  await executor?.close();
});

it("lists and gets upstream prompts through the executor; an unknown server is TOOL_NOT_FOUND", async () => {
  const prompts = await executor.listPrompts();
  expect(prompts.filter((prompt) => prompt.server === "up").map((prompt) => prompt.name)).toEqual(["test_simple_prompt", "test_prompt_with_arguments", "test_prompt_with_embedded_resource", "pick_city", "test_prompt_with_image"]);
  expect(prompts.find((prompt) => prompt.name === "test_prompt_with_arguments")?.arguments).toEqual([
    { name: "arg1", description: "First test argument", required: true },
    { name: "arg2", description: "Second test argument", required: true },
  ]);
  expect(await executor.getPrompt("up", "test_simple_prompt")).toEqual({ ok: true, messages: [{ role: "user", content: { type: "text", text: "This is a simple prompt for testing." } }] });
  expect(await executor.getPrompt("nope", "x")).toMatchObject({ ok: false, error: { code: "TOOL_NOT_FOUND", message: 'No MCP server named "nope"' } });
  expect(await executor.listResourceTemplates()).toContainEqual({ server: "up", uriTemplate: "test://template/{id}/data", name: "template-data", description: "Data for one id.", mimeType: "application/json" });
});

it("serves prompts as server__prompt, and under their own names for a server with prefix false", async () => {
  const client = await httpClient(serving.url);
  const names = (await client.listPrompts()).prompts.map((prompt) => prompt.name);
  expect(names).toEqual(expect.arrayContaining(["up__test_simple_prompt", "test_simple_prompt", "up__test_prompt_with_image", "test_prompt_with_image"]));
  expect(await client.getPrompt({ name: "up__test_prompt_with_arguments", arguments: { arg1: "a", arg2: "b" } })).toEqual({
    messages: [{ role: "user", content: { type: "text", text: "Prompt with arguments: arg1='a', arg2='b'" } }],
  });
  await expect(client.getPrompt({ name: "missing" })).rejects.toThrowErrorMatchingInlineSnapshot(`[McpError: MCP error -32602: No prompt named "missing"]`);
  await client.close();
});

it("serves resource templates and reads a templated URI from the template's owner; an unknown URI is -32002", async () => {
  const client = await httpClient(serving.url);
  expect((await client.listResourceTemplates()).resourceTemplates.map((template) => template.uriTemplate)).toContain("test://template/{id}/data");
  expect(await client.readResource({ uri: "test://template/7/data" })).toEqual({
    contents: [{ uri: "test://template/7/data", mimeType: "application/json", text: '{"id":"7","templateTest":true,"data":"Data for ID: 7"}' }],
  });
  await expect(client.readResource({ uri: "other://7" })).rejects.toMatchObject({ code: -32002, message: "MCP error -32002: No resource with URI other://7" });
  await client.close();
});
