/**
 * A denied tool (`excludeTools` / `includeTools` globs) and a quarantined one are absent from every
 * front door, and every front door's call of them is refused: the host's `callTool`, the CLI, code
 * mode (by server and tool, and by full name), an MCP client of the served executor, and the LLM
 * adapters. All of them reach the registry through the one pipeline; this proves it for each.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Executor } from "../../src/index.js";
import { runToolCalls, toAnthropicTools, toOpenAiChatTools } from "../../src/llm.js";
import { serveHttp, type HttpServing } from "../../src/serve.js";
import { runCli } from "../cli/run-cli.js";
import type { TempProject } from "../helpers/temp-project.js";
import { DELETE, FETCH, openTrusted, SEARCH, trustProject } from "./trust-test-helpers.js";

const DENIED = "docs__delete_page";
const HELD = "docs__fetch_page";

let project: TempProject;
let executor: Executor;
beforeEach(async () => {
  // delete_page is denied by a glob; refresh is left out by includeTools; fetch_page stays quarantined.
  project = trustProject([SEARCH, FETCH, DELETE], { trust: "quarantine", includeTools: ["search", "*_page"], excludeTools: ["delete_*"] });
  executor = await openTrusted(project, { codeExecution: { enabled: true } });
  expect(await executor.approveTools("docs__search")).toMatchObject({ ok: true });
});

describe("the host", () => {
  it("lists neither and refuses both calls: TOOL_NOT_FOUND for the denied tool, TOOL_QUARANTINED for the held one", async () => {
    const names = (await executor.listTools()).map((tool) => tool.name);
    expect(names).toContain("docs__search");
    expect(names).not.toContain(DENIED);
    expect(names).not.toContain(HELD);
    expect(names).not.toContain("docs__refresh");
    expect(executor.servers()[0]!.tools).toEqual(["docs__search"]);
    expect(await executor.callTool(DENIED, { id: 1 })).toMatchObject({ ok: false, error: { code: "TOOL_NOT_FOUND" } });
    expect(await executor.callTool(HELD, { id: 1 })).toMatchObject({ ok: false, error: { code: "TOOL_QUARANTINED", details: { reason: "new-tool" } } });
    expect(await executor.callTool("docs__search", { phrase: "a" })).toMatchObject({ ok: true });
  });
});

describe("code mode", () => {
  it("offers neither in `tools`, and refuses them by server and tool and by full name", async () => {
    const run = await executor.executeCode({
      code: `return {
        listed: Object.keys(tools.docs ?? {}),
        byParts: call_tool("docs", "delete_page", { id: 1 }).error?.code,
        byName: call_tool("${DENIED}", { id: 1 }).error?.code,
        heldByParts: call_tool("docs", "fetch_page", { id: 1 }).error?.code,
        heldByName: call_tool("${HELD}", { id: 1 }).error?.code,
        allowed: call_tool("docs__search", { phrase: "a" }).ok,
      }`,
    });
    // A denied tool is as unknown as one that never existed; a held one answers why (code-mode-trust.test.ts).
    expect(run).toMatchObject({ ok: true, value: { listed: ["search"], byParts: "TOOL_NOT_FOUND", byName: "TOOL_NOT_FOUND", heldByParts: "TOOL_QUARANTINED", heldByName: "TOOL_QUARANTINED", allowed: true } });
  });
});

describe("an MCP client of the served executor", () => {
  let serving: HttpServing | undefined;
  afterEach(async () => {
    await serving?.close();
    serving = undefined;
  });

  it("lists neither and gets error results for both", async () => {
    serving = await serveHttp(executor);
    const client = new Client({ name: "trust-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(serving.url)));
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toContain("docs__search");
      expect(names).not.toContain(DENIED);
      expect(names).not.toContain(HELD);
      const denied = await client.callTool({ name: DENIED, arguments: { id: 1 } });
      expect(denied.isError).toBe(true);
      expect(JSON.stringify(denied.content)).toContain("TOOL_NOT_FOUND");
      const held = await client.callTool({ name: HELD, arguments: { id: 1 } });
      expect(held.isError).toBe(true);
      expect(JSON.stringify(held.content)).toContain("TOOL_QUARANTINED");
    } finally {
      await client.close();
    }
  });
});

describe("the LLM adapters", () => {
  it("describe neither to a model and answer the model's calls of them with the error", async () => {
    const tools = await executor.listTools();
    const openAi = toOpenAiChatTools(tools).tools.map((tool) => tool.function.name);
    const anthropic = toAnthropicTools(tools).tools.map((tool) => tool.name);
    for (const names of [openAi, anthropic]) {
      expect(names).toContain("docs__search");
      expect(names).not.toContain(DENIED);
      expect(names).not.toContain(HELD);
    }
    const answers = await runToolCalls(executor, [
      { id: "1", name: DENIED, arguments: "{}" },
      { id: "2", name: HELD, arguments: "{}" },
    ]);
    expect(answers.map((answer) => [answer.isError, answer.text.split(":")[0]])).toEqual([
      [true, "TOOL_NOT_FOUND"],
      [true, "TOOL_QUARANTINED"],
    ]);
  });
});

describe("the CLI", () => {
  it("lists neither and refuses both calls", async () => {
    await executor.close();
    const listed = await runCli(["tools", "list", "--json", "--root", project.root]);
    const names = (JSON.parse(listed.stdout) as Array<{ name: string }>).map((tool) => tool.name);
    expect(names).toEqual(["docs__search", "read_result"]);
    const denied = await runCli(["tools", "call", DENIED, "--json", "--root", project.root]);
    expect(denied.code).toBe(1);
    expect(JSON.parse(denied.stdout)).toMatchObject({ ok: false, error: { code: "TOOL_NOT_FOUND" } });
    const held = await runCli(["tools", "call", HELD, "--json", "--root", project.root]);
    expect(held.code).toBe(1);
    expect(JSON.parse(held.stdout)).toMatchObject({ ok: false, error: { code: "TOOL_QUARANTINED", details: { approve: `npx toolexec tools approve ${HELD}` } } });
    // Each command starts the upstream server: room for three runs on a loaded 2-core machine.
  }, 60_000);
});
