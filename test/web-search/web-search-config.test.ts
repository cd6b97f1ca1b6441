/**
 * Where web search is configured: tools.json's `webSearch` (strict, variables from the environment,
 * problems located in the file), the `webSearch` option (replaces the file's object, `false` turns
 * it off), hot reload, and the tool's absence when nothing configures it.
 */
import { writeFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { createExecutor, isToolexecError, type Executor } from "../../src/index.js";
import { loadProjectConfig } from "../../src/config.js";
import { configErrorText } from "../config/config-test-helpers.js";
import { createTempProject } from "../helpers/temp-project.js";
import { startFakeProvider, successBody } from "./fake-provider.js";

const opened: Executor[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((executor) => executor.close()));
  delete process.env.TOOLEXEC_TEST_SEARCH_KEY;
});

const projectWith = (webSearch: unknown) => createTempProject({ tools: JSON.stringify({ tools: [], webSearch }, null, 2) });

async function open(root: string, options: Parameters<typeof createExecutor>[0] = {}) {
  const executor = await createExecutor({ root, watch: false, logDir: false, mcpConfig: false, ...options });
  opened.push(executor);
  return executor;
}

const listed = async (executor: Executor) => (await executor.listTools()).find((tool) => tool.name === "web_search");

describe("tools.json webSearch", () => {
  it("takes the key from the environment and fills in the defaults", async () => {
    process.env.TOOLEXEC_TEST_SEARCH_KEY = "from-the-environment";
    const config = await loadProjectConfig({ root: projectWith({ provider: "brave", apiKey: "${TOOLEXEC_TEST_SEARCH_KEY}" }).root });
    expect(config.sections["web-search"]).toEqual({ provider: "brave", apiKey: "from-the-environment", url: "https://api.search.brave.com", maxResults: 10, timeoutMs: 15_000, retries: 2 });
  });

  it("reports an unset variable at webSearch.apiKey, with line and column", async () => {
    expect(await configErrorText(projectWith({ provider: "tavily", apiKey: "${TOOLEXEC_TEST_SEARCH_KEY}" }))).toMatchInlineSnapshot(
      `"tools.json:5:15 webSearch.apiKey: Environment variable "TOOLEXEC_TEST_SEARCH_KEY" is not set on the host; set it, or give a default with \${TOOLEXEC_TEST_SEARCH_KEY:-value}"`,
    );
  });

  it("says which key each provider needs, and refuses one it does not take", async () => {
    expect(await configErrorText(projectWith({ provider: "brave" }))).toMatchInlineSnapshot(
      `"tools.json:3:16 webSearch: Missing required key "apiKey" for provider "brave": Brave Search needs an API key, e.g. "apiKey": "\${BRAVE_API_KEY}""`,
    );
    expect(await configErrorText(projectWith({ provider: "searxng", apiKey: "x" }))).toMatchInlineSnapshot(`
      "2 problems in tools.json:
        tools.json:3:16 webSearch: Missing required key "url" for provider "searxng": the base URL of your SearXNG instance, e.g. "http://127.0.0.1:8888"
        tools.json:5:15 webSearch.apiKey: SearXNG takes no API key; remove "apiKey""
    `);
  });

  it("checks the URL: http(s), no query, and no key in clear text to another machine", async () => {
    expect(await configErrorText(projectWith({ provider: "brave", apiKey: "k", url: "http://search-proxy.example" }))).toContain(
      "webSearch.url: Refusing to send the API key in clear text to search-proxy.example: use https, or http only to this machine (localhost, 127.0.0.1, [::1])",
    );
    expect(await configErrorText(projectWith({ provider: "searxng", url: "ftp://127.0.0.1" }))).toContain("webSearch.url: Expected an http(s) URL, got the ftp: scheme");
    expect(await configErrorText(projectWith({ provider: "searxng", url: "http://127.0.0.1:8888/?q=x" }))).toContain("Expected a base URL without a query or fragment");
    expect(await configErrorText(projectWith({ provider: "searxng", url: "http://user:pw@127.0.0.1:8888" }))).toContain("Expected a URL without credentials in it");
    // SearXNG sends no key, so plain http to a machine on the network is fine; a trailing slash is dropped.
    const config = await loadProjectConfig({ root: projectWith({ provider: "searxng", url: "http://searx.lan:8888/searx/" }).root });
    expect(config.sections["web-search"]?.url).toBe("http://searx.lan:8888/searx");
  });

  it("rejects unknown keys and out-of-range values like the rest of the file", async () => {
    const text = await configErrorText(projectWith({ provider: "bing", apiKey: "k", maxResults: 50, retry: 1 }));
    expect(text).toContain('webSearch.provider: Expected one of "brave", "tavily", "searxng", got "bing"');
    expect(text).toContain("webSearch.maxResults:");
    expect(text).toContain('webSearch.retry: Unknown key "retry"; expected one of: provider, apiKey, url, maxResults, timeoutMs, retries, safeSearch');
  });

  it("reserves the name web_search", async () => {
    const project = createTempProject({ tools: { tools: [{ name: "web_search", description: "mine", runtime: "shell", script: "x.sh", inputSchema: { type: "object" } }] } });
    expect(await configErrorText(project)).toContain('Tool name "web_search" is reserved for a built-in tool');
  });

  it("applies an edit on reload: another provider, another URL", async () => {
    const [first, second] = [await startFakeProvider(), await startFakeProvider()];
    first.answer({ body: successBody("searxng") });
    second.answer({ body: successBody("tavily") });
    const project = projectWith({ provider: "searxng", url: first.url });
    const executor = await open(project.root);
    expect(await executor.callTool("web_search", { query: "a" })).toMatchObject({ ok: true });
    writeFileSync(project.path("tools.json"), JSON.stringify({ tools: [], webSearch: { provider: "tavily", apiKey: "k", url: second.url, maxResults: 2 } }));
    expect(await executor.reload()).toMatchObject({ ok: true, restarted: ["web-search"] });
    expect((await listed(executor))?.inputSchema).toMatchObject({ properties: { maxResults: { maximum: 2 } } });
    expect(await executor.callTool("web_search", { query: "b" })).toMatchObject({ ok: true, value: { results: [{}, {}] } });
    expect([first.requests.length, second.requests.length]).toEqual([1, 1]);
  });
});

describe("the webSearch option", () => {
  it("replaces tools.json's object as a whole, and false turns the tool off", async () => {
    const fromFile = await startFakeProvider();
    const fromOption = await startFakeProvider();
    fromOption.answer({ body: successBody("brave") });
    const project = projectWith({ provider: "searxng", url: fromFile.url, safeSearch: "strict" });
    const executor = await open(project.root, { webSearch: { provider: "brave", apiKey: "literal ${NOT_INTERPOLATED}", url: fromOption.url } });
    expect(await executor.callTool("web_search", { query: "a" })).toMatchObject({ ok: true });
    expect(fromFile.requests).toHaveLength(0);
    expect(fromOption.requests[0]!.headers["x-subscription-token"]).toBe("literal ${NOT_INTERPOLATED}");
    expect(fromOption.requests[0]!.query.get("safesearch")).toBeNull();
    const off = await open(project.root, { webSearch: false });
    expect(await listed(off)).toBeUndefined();
  });

  it("throws INVALID_OPTIONS for a provider without its key, and for an unknown key", async () => {
    const project = createTempProject({ tools: { tools: [] } });
    const problem = async (webSearch: unknown) =>
      open(project.root, { webSearch: webSearch as never }).then(
        () => "no error",
        (error: unknown) => (isToolexecError(error) ? `${error.code}: ${error.message}` : String(error)),
      );
    expect(await problem({ provider: "tavily" })).toBe(
      'INVALID_OPTIONS: Invalid createExecutor options: webSearch: Missing required key "apiKey" for provider "tavily": Tavily needs an API key, e.g. "apiKey": "${TAVILY_API_KEY}"',
    );
    expect(await problem({ provider: "brave", apiKey: "k", url: "http://10.0.0.5" })).toContain("webSearch.url: Refusing to send the API key in clear text to 10.0.0.5");
    expect(await problem({ provider: "brave", key: "k" })).toBe(
      'INVALID_OPTIONS: Invalid createExecutor options: webSearch.key: Unknown key "key"; expected one of: provider, apiKey, url, maxResults, timeoutMs, retries, safeSearch',
    );
  });
});

describe("without a provider", () => {
  it("lists no web_search, and a call says how to configure one", async () => {
    const executor = await open(createTempProject({ tools: { tools: [] } }).root);
    expect(await listed(executor)).toBeUndefined();
    const result = await executor.callTool("web_search", { query: "news" });
    expect(result).toMatchObject({ ok: false, error: { code: "TOOL_NOT_FOUND" } });
    expect((result as { error: { message: string } }).error.message).toContain('Web search is not configured: "web_search" is offered only with a provider');
  });
});
