/**
 * `web_search` is reached like every tool — from sandboxed code (`call_tool`), from the CLI
 * (`toolexec tools call web_search`, a real process) — and its key never reaches the execution log.
 * Also: the plugin passes the shared contract suite.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createExecutor, type Executor } from "../../src/index.js";
import { webSearchPlugin } from "../../src/plugins/web-search/web-search-plugin.js";
import { resolveWebSearchConfig, type WebSearchSettings } from "../../src/plugins/web-search/config/resolve-web-search-config.js";
import { testPluginContract } from "../../src/testing.js";
import { serveHttp } from "../../src/serve.js";
import { runCli } from "../cli/run-cli.js";
import { httpClient } from "../serve/serve-test-helpers.js";
import { DEFAULT_LOG_PATH, readLogRecords, readLogText } from "../log/log-test-helpers.js";
import { createTempProject } from "../helpers/temp-project.js";
import { deferred } from "../helpers/deferred.js";
import { PAGES, startFakeProvider, successBody, type FakeProvider } from "./fake-provider.js";

const KEY = "tvly-secret-0123456789abcdef";

const opened: Executor[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((executor) => executor.close()));
});

describe("reaching web_search", () => {
  it("from code mode, through call_tool", async () => {
    const fake = await startFakeProvider();
    fake.answer({ body: successBody("searxng") });
    const project = createTempProject({ tools: { tools: [], webSearch: { provider: "searxng", url: fake.url } } });
    const executor = await createExecutor({ root: project.root, watch: false, logDir: false, mcpConfig: false, codeExecution: { enabled: true, poolSize: 1 } });
    opened.push(executor);
    const result = await executor.executeCode({ code: "const found = call_tool('web_search', { query: input, maxResults: 2 });\nfound.value.results.map((result) => result.url)", input: "node 22" });
    expect(result).toMatchObject({ ok: true, value: [PAGES[0]!.url, PAGES[1]!.url], toolCalls: [{ tool: "web_search", ok: true }] });
    expect(fake.requests[0]!.query.get("q")).toBe("node 22");
  });

  it("from an MCP client, when the executor is served (the SDK's Client checks the result against outputSchema)", async () => {
    const fake = await startFakeProvider();
    fake.answer({ body: successBody("tavily") }, { status: 401, body: { detail: { error: "Unauthorized: missing or invalid API key." } } });
    const project = createTempProject({ tools: { tools: [], webSearch: { provider: "tavily", apiKey: KEY, url: fake.url } } });
    const executor = await createExecutor({ root: project.root, watch: false, logDir: false, mcpConfig: false });
    opened.push(executor);
    const serving = await serveHttp(executor);
    const client = await httpClient(serving.url);
    try {
      const listed = (await client.listTools()).tools.find((tool) => tool.name === "web_search");
      expect(listed).toMatchObject({ annotations: { readOnlyHint: true, openWorldHint: true }, outputSchema: { type: "object", required: ["results"] } });
      const found = await client.callTool({ name: "web_search", arguments: { query: "node 22", maxResults: 1 } });
      expect(found).toMatchObject({ structuredContent: { results: [{ title: PAGES[0]!.title, url: PAGES[0]!.url }] } });
      expect(found.isError).toBeFalsy();
      const refused = await client.callTool({ name: "web_search", arguments: { query: "node 22" } });
      expect(refused).toMatchObject({ isError: true, _meta: { "toolexec/errorCode": "AUTH_FAILED" } });
    } finally {
      await client.close();
      await serving.close();
    }
  });

  it("from the CLI, as a real process", async () => {
    const fake = await startFakeProvider();
    fake.answer({ body: successBody("brave") });
    const project = createTempProject({ tools: { tools: [], webSearch: { provider: "brave", apiKey: KEY, url: fake.url } } });
    const run = await runCli(["tools", "call", "web_search", "--args", '{"query": "node 22", "maxResults": 1}', "--root", project.root, "--no-mcp", "--json"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ ok: true, value: { results: [{ title: PAGES[0]!.title, url: PAGES[0]!.url }] } });
  });
});

describe("finding web_search", () => {
  it("tool search ranks it first for requests to look something up online", async () => {
    const project = createTempProject({ tools: { tools: [], webSearch: { provider: "searxng", url: "http://127.0.0.1:9" } } });
    const executor = await createExecutor({ root: project.root, watch: false, logDir: false, mcpConfig: false, onHumanInput: () => "ok" });
    opened.push(executor);
    for (const request of ["latest news about the rust language", "look up the current vitest documentation online"]) {
      expect((await executor.searchTools(request, { limit: 1 }))[0]?.name, request).toBe("web_search");
    }
  });
});

describe("the execution log", () => {
  async function loggedProject(fake: FakeProvider) {
    const project = createTempProject({ tools: { tools: [], webSearch: { provider: "tavily", apiKey: KEY, url: fake.url } } });
    const executor = await createExecutor({ root: project.root, watch: false, mcpConfig: false });
    opened.push(executor);
    return { executor, logDir: project.path(DEFAULT_LOG_PATH) };
  }

  it("never shows the key: not in arguments that quote it, not in an error that echoes it", async () => {
    const fake = await startFakeProvider();
    const { executor, logDir } = await loggedProject(fake);
    fake.answer({ body: successBody("tavily") }, { status: 401, body: { detail: { error: `Unauthorized: invalid API key ${KEY}` } } });
    expect(await executor.callTool("web_search", { query: `is ${KEY} a valid key` })).toMatchObject({ ok: true });
    expect(await executor.callTool("web_search", { query: "news" })).toMatchObject({ ok: false, error: { code: "AUTH_FAILED" } });
    await executor.close();
    const records = readLogRecords(logDir);
    expect(records.map((record) => [record.tool, record.ok])).toEqual([
      ["web_search", true],
      ["web_search", false],
    ]);
    expect(records[0]!.arguments).toEqual({ query: "is [REDACTED] a valid key" });
    expect(readLogText(logDir)).not.toContain(KEY.slice(-12));
  });
});

/** Resolved each time the contract suite's slow search reaches the provider. */
let slowSearchArrived = deferred();

/** The settings the contract suite starts the plugin with (its `context.config`), against a fake provider. */
let contractSettings: WebSearchSettings | undefined;

testPluginContract("web-search", {
  plugin: () => webSearchPlugin(),
  entries: async () => {
    const fake = await startFakeProvider();
    // Quick searches are answered at once; the one for "wait" is never answered (the call must be aborted).
    fake.answer((request) => {
      if (request.query.get("q") !== "wait") return { body: successBody("searxng") };
      slowSearchArrived.resolve();
      return "hang";
    });
    const resolved = resolveWebSearchConfig({ provider: "searxng", url: fake.url });
    if (!resolved.ok) throw new Error("invalid web search settings");
    contractSettings = resolved.settings;
    return [];
  },
  context: () => ({ config: contractSettings }),
  quickCall: { name: "web_search", arguments: { query: "quick" } },
  slowCall: {
    name: "web_search",
    arguments: { query: "wait" },
    started: async () => {
      await slowSearchArrived.promise;
      slowSearchArrived = deferred();
    },
  },
});
