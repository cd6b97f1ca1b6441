/** The search-first listing: models see search_tools, call_tool and the pinned tools; every tool stays callable. */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterEach, describe, expect, it } from "vitest";
import { createExecutor, type Executor, type ExecutorOptions } from "../../src/index.js";
import { serveHttp, type HttpServing } from "../../src/serve.js";
import { createTempProject, toolEntry } from "../helpers/temp-project.js";
import { httpClient, silentLogger } from "../serve/serve-test-helpers.js";
import { changingPlugin } from "./search-fixtures.js";

const opened: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const resource of opened.splice(0).reverse()) await resource.close();
});

async function searchFirstExecutor(options: ExecutorOptions = {}): Promise<Executor> {
  const project = createTempProject({ tools: { tools: [] } });
  project.useFixtures("echo.py");
  project.write("tools.json", { tools: [toolEntry("echo", "python", "echo.py", { description: "Echo the arguments back.", inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } })] });
  const { plugin } = changingPlugin();
  const executor = await createExecutor({ root: project.root, watch: false, logDir: false, mcpConfig: false, logger: silentLogger, plugins: [plugin], onHumanInput: async () => "staging", toolSearch: { searchFirst: true }, ...options });
  opened.push(executor);
  return executor;
}

const names = (tools: Array<{ name: string }>) => tools.map((tool) => tool.name).sort();

describe("toolSearch.searchFirst", () => {
  it("lists only search_tools, describe_tools, call_tool and the registered pinned built-ins", async () => {
    const executor = await searchFirstExecutor();
    expect(names(await executor.listTools())).toEqual(["call_tool", "describe_tools", "read_result", "request_human_input", "search_tools"]);
  });

  it("lists the host's pinned tools instead of the default ones", async () => {
    const executor = await searchFirstExecutor({ toolSearch: { searchFirst: true, pinnedTools: ["echo", "chat__send_message"] } });
    expect(names(await executor.listTools())).toEqual(["call_tool", "chat__send_message", "describe_tools", "echo", "read_result", "search_tools"]);
  });

  it("keeps every tool callable by name, directly and through call_tool", async () => {
    const executor = await searchFirstExecutor();
    expect(await executor.callTool("echo", { text: "hi" })).toMatchObject({ ok: true, value: { text: "hi" } });
    const viaCallTool = await executor.callTool("call_tool", { name: "echo", arguments: { text: "hi" } });
    expect(viaCallTool).toMatchObject({ ok: true, value: { text: "hi" } });
  });

  it("finds a tool with search_tools, then calls it with call_tool", async () => {
    const executor = await searchFirstExecutor();
    const found = await executor.callTool("search_tools", { query: "echo my arguments back", limit: 1 });
    expect(found).toMatchObject({ ok: true, value: [{ name: "echo" }] });
    const name = (found.ok && (found.value as Array<{ name: string }>)[0]?.name) as string;
    expect(await executor.callTool("call_tool", { name, arguments: { text: "found" } })).toMatchObject({ ok: true, value: { text: "found" } });
  });

  it("answers call_tool with the called tool's own errors", async () => {
    const executor = await searchFirstExecutor();
    expect(await executor.callTool("call_tool", { name: "echo", arguments: {} })).toMatchObject({ ok: false, error: { code: "INVALID_INPUT" } });
    expect(await executor.callTool("call_tool", { name: "no_such_tool" })).toMatchObject({ ok: false, error: { code: "TOOL_NOT_FOUND" } });
    expect(await executor.callTool("call_tool", { name: "call_tool", arguments: { name: "echo" } })).toMatchObject({
      ok: false,
      error: { code: "INVALID_INPUT", message: "call_tool cannot call itself" },
    });
    expect(await executor.callTool("call_tool", { arguments: {} })).toMatchObject({ ok: false, error: { code: "INVALID_INPUT" } });
  });

  it("is what an MCP client is served", async () => {
    const executor = await searchFirstExecutor();
    const serving: HttpServing = await serveHttp(executor);
    opened.push(serving);
    const client: Client = await httpClient(serving.url);
    opened.push(client);
    const { tools } = await client.listTools();
    expect(names(tools)).toEqual(["call_tool", "describe_tools", "read_result", "request_human_input", "search_tools"]);
    const result = await client.callTool({ name: "call_tool", arguments: { name: "echo", arguments: { text: "served" } } });
    expect(result.structuredContent).toEqual({ text: "served" });
  });

  it("without it, nothing is hidden and call_tool is not offered", async () => {
    const executor = await searchFirstExecutor({ toolSearch: { offerTool: true } });
    const listed = names(await executor.listTools());
    expect(listed).toContain("echo");
    expect(listed).toContain("search_tools");
    expect(listed).not.toContain("call_tool");
    expect(await executor.callTool("call_tool", { name: "echo", arguments: { text: "x" } })).toMatchObject({ ok: false, error: { code: "TOOL_NOT_FOUND" } });
  });

  it("makes code mode's description name only servers and point to search_tools", async () => {
    const executor = await searchFirstExecutor({ codeExecution: { enabled: true, poolSize: 1 } });
    const description = (await executor.listTools()).find((tool) => tool.name === "code_execution")?.description ?? "";
    expect(description).toContain("find the ones a task needs with search_tools");
    expect(description).toContain("\nServers:\n- ");
    expect(description).not.toContain("send_message");
    const listedAll = await searchFirstExecutor({ toolSearch: {}, codeExecution: { enabled: true, poolSize: 1 } });
    expect((await listedAll.listTools()).find((tool) => tool.name === "code_execution")?.description).toContain("send_message");
  });

  it("rejects options of the wrong type", async () => {
    await expect(searchFirstExecutor({ toolSearch: { searchFirst: "yes" as never } })).rejects.toMatchObject({ code: "INVALID_OPTIONS" });
    await expect(searchFirstExecutor({ toolSearch: { pinnedTools: "echo" as never } })).rejects.toMatchObject({ code: "INVALID_OPTIONS" });
  });
});
