/**
 * `web_search` against each provider's wire format, served by a real HTTP server on 127.0.0.1:
 * results, rate limiting (429 then success, past the budget, retries spent), bad keys, server
 * errors, malformed answers, a slow answer and a huge one, and an unreachable provider.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { createExecutor, type Executor } from "../../src/index.js";
import type { WebSearchConfig } from "../../src/config.js";
import { createTempProject } from "../helpers/temp-project.js";
import { errorBody, PAGES, startFakeProvider, successBody, type FakeProvider, type ProviderName } from "./fake-provider.js";

const KEY = "test-key-0123456789abcdef";

const opened: Executor[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((executor) => executor.close()));
});

function configFor(provider: ProviderName, url: string, extra: Partial<WebSearchConfig> = {}): WebSearchConfig {
  return provider === "searxng" ? { provider, url, ...extra } : { provider, apiKey: KEY, url, ...extra };
}

async function searchExecutor(provider: ProviderName, extra: Partial<WebSearchConfig> = {}): Promise<{ executor: Executor; fake: FakeProvider }> {
  const fake = await startFakeProvider();
  const project = createTempProject({ tools: { tools: [], webSearch: configFor(provider, fake.url, extra) } });
  const executor = await createExecutor({ root: project.root, watch: false, logDir: false, mcpConfig: false });
  opened.push(executor);
  return { executor, fake };
}

describe.each(["brave", "tavily", "searxng"] as const)("web_search with %s", (provider) => {
  it("returns title, url, snippet and published for each result, asking the documented endpoint", async () => {
    const { executor, fake } = await searchExecutor(provider);
    fake.answer({ body: successBody(provider) });
    const result = await executor.callTool("web_search", { query: "node 22 release", maxResults: 3, timeRange: "week" });
    expect(result).toMatchObject({ ok: true });
    const value = (result as { value: { results: unknown[] } }).value;
    expect(value.results).toEqual([
      { title: PAGES[0]!.title, url: PAGES[0]!.url, snippet: PAGES[0]!.snippet, published: PAGES[0]!.date },
      { title: PAGES[1]!.title, url: PAGES[1]!.url, snippet: PAGES[1]!.snippet },
      { title: PAGES[2]!.title, url: PAGES[2]!.url, snippet: PAGES[2]!.snippet },
    ]);
    const [request] = fake.requests;
    if (provider === "brave") {
      expect(request).toMatchObject({ method: "GET", path: "/res/v1/web/search" });
      expect(request!.headers["x-subscription-token"]).toBe(KEY);
      expect(Object.fromEntries(request!.query)).toMatchObject({ q: "node 22 release", count: "3", freshness: "pw" });
    } else if (provider === "tavily") {
      expect(request).toMatchObject({ method: "POST", path: "/search" });
      expect(request!.headers.authorization).toBe(`Bearer ${KEY}`);
      expect(JSON.parse(request!.body)).toMatchObject({ query: "node 22 release", max_results: 3, time_range: "week", include_answer: false });
    } else {
      expect(request).toMatchObject({ method: "GET", path: "/search" });
      expect(Object.fromEntries(request!.query)).toMatchObject({ q: "node 22 release", format: "json", time_range: "week" });
      expect(request!.headers.authorization).toBeUndefined();
    }
  });

  it("returns at most the configured maxResults, and that many by default", async () => {
    const { executor, fake } = await searchExecutor(provider, { maxResults: 2 });
    fake.answer({ body: successBody(provider) });
    const result = await executor.callTool("web_search", { query: "node" });
    expect((result as { value: { results: unknown[] } }).value.results).toHaveLength(2);
    const over = await executor.callTool("web_search", { query: "node", maxResults: 3 });
    expect(over).toMatchObject({ ok: false, error: { code: "INVALID_INPUT" } });
    expect(await executor.callTool("web_search", { query: "   " })).toMatchObject({ ok: false, error: { code: "INVALID_INPUT" } });
    expect(fake.requests).toHaveLength(1);
  });

  it("retries a 429 and succeeds when the provider lets it (Retry-After honoured)", async () => {
    const { executor, fake } = await searchExecutor(provider);
    fake.answer({ status: 429, headers: { "retry-after": "0" }, body: errorBody(provider, 429, "Too many requests") }, { body: successBody(provider) });
    const result = await executor.callTool("web_search", { query: "node" });
    expect(result).toMatchObject({ ok: true });
    expect(fake.requests).toHaveLength(2);
  });

  it("answers SERVICE_UNAVAILABLE at once when the wait asked for is past the call's budget", async () => {
    const { executor, fake } = await searchExecutor(provider, { timeoutMs: 30_000 });
    fake.answer({ status: 429, headers: { "retry-after": "60" }, body: errorBody(provider, 429, "Too many requests") });
    const started = Date.now();
    const result = await executor.callTool("web_search", { query: "node" });
    expect(result).toMatchObject({ ok: false, error: { code: "SERVICE_UNAVAILABLE", details: { httpStatus: 429, retryAfterMs: 60_000, attempts: 1 } } });
    // At once: well before the 30 s budget a wait would spend, with a margin for a busy machine.
    expect(Date.now() - started).toBeLessThan(10_000);
    expect((result as { error: { message: string } }).error.message).toMatch(/rate-limited the search \(HTTP 429.*asked to wait 60 s; no time is left/);
    expect(fake.requests).toHaveLength(1);
  });

  it("gives up with SERVICE_UNAVAILABLE when the retries are spent", async () => {
    const { executor, fake } = await searchExecutor(provider, { retries: 2 });
    fake.answer({ status: 429, headers: { "retry-after": "0" }, body: errorBody(provider, 429, "Too many requests") });
    const result = await executor.callTool("web_search", { query: "node" });
    expect(result).toMatchObject({ ok: false, error: { code: "SERVICE_UNAVAILABLE", details: { attempts: 3, httpStatus: 429 } } });
    expect((result as { error: { message: string } }).error.message).toContain("gave up after 3 attempts");
    expect(fake.requests).toHaveLength(3);
  });

  it("retries a server error, then succeeds", async () => {
    const { executor, fake } = await searchExecutor(provider);
    fake.answer({ status: 503, body: errorBody(provider, 503, "Service unavailable") }, { body: successBody(provider) });
    expect(await executor.callTool("web_search", { query: "node" })).toMatchObject({ ok: true });
    expect(fake.requests).toHaveLength(2);
  });

  it("answers SERVICE_UNAVAILABLE after server errors with no retries left", async () => {
    const { executor, fake } = await searchExecutor(provider, { retries: 0 });
    fake.answer({ status: 500, body: errorBody(provider, 500, "Internal error") });
    const result = await executor.callTool("web_search", { query: "node" });
    expect(result).toMatchObject({ ok: false, error: { code: "SERVICE_UNAVAILABLE", details: { httpStatus: 500, attempts: 1 } } });
  });

  it("answers AUTH_FAILED for a rejected key (401), without retrying", async () => {
    const { executor, fake } = await searchExecutor(provider);
    fake.answer({ status: 401, body: errorBody(provider, 401, "Unauthorized: missing or invalid API key.") });
    const result = await executor.callTool("web_search", { query: "node" });
    expect(result).toMatchObject({ ok: false, error: { code: "AUTH_FAILED", details: { httpStatus: 401 } } });
    expect((result as { error: { message: string } }).error.message).toMatch(
      provider === "searxng" ? /^SearXNG refused the search \(HTTP 401\): .*asks for credentials/ : /rejected the API key \(HTTP 401.*check webSearch\.apiKey/,
    );
    expect(fake.requests).toHaveLength(1);
  });

  it("answers INVALID_OUTPUT for a body that is not JSON", async () => {
    const { executor, fake } = await searchExecutor(provider);
    fake.answer({ body: "<html>Bad gateway page</html>" });
    const result = await executor.callTool("web_search", { query: "node" });
    expect(result).toMatchObject({ ok: false, error: { code: "INVALID_OUTPUT" } });
    expect((result as { error: { message: string } }).error.message).toContain("not JSON");
  });

  it("answers INVALID_OUTPUT for JSON in another shape", async () => {
    const { executor, fake } = await searchExecutor(provider);
    fake.answer({ body: { items: [] } });
    const result = await executor.callTool("web_search", { query: "node" });
    expect(result).toMatchObject({ ok: false, error: { code: "INVALID_OUTPUT", details: { provider: expect.any(String) } } });
    expect((result as { error: { message: string } }).error.message).toMatch(/answered in an unexpected shape: expected/);
  });

  it("leaves out results without an http(s) URL, with a warning", async () => {
    const { executor, fake } = await searchExecutor(provider);
    fake.answer({ body: successBody(provider, [...PAGES.slice(0, 1), { title: "bad", url: "javascript:alert(1)", snippet: "x" }]) });
    const result = await executor.callTool("web_search", { query: "node" });
    expect(result).toMatchObject({ ok: true, value: { results: [{ url: PAGES[0]!.url }] }, warnings: ["1 result without an http(s) URL left out"] });
  });

  it("ends a slow answer with TIMEOUT at the configured budget, and stops it on cancel", async () => {
    const { executor, fake } = await searchExecutor(provider, { timeoutMs: 300 });
    fake.answer("hang");
    const result = await executor.callTool("web_search", { query: "node" });
    expect(result).toMatchObject({ ok: false, error: { code: "TIMEOUT", details: { timeoutMs: 300 } } });
    expect((result as { error: { message: string } }).error.message).toMatch(/did not answer before the call's deadline; raise webSearch\.timeoutMs/);
    // A budget the cancel cannot race on a busy machine: the request reaching the fake is the signal.
    const patient = await searchExecutor(provider, { timeoutMs: 30_000 });
    patient.fake.answer("hang");
    const controller = new AbortController();
    const cancelled = patient.executor.callTool("web_search", { query: "node" }, { signal: controller.signal });
    await vi.waitFor(() => expect(patient.fake.requests).toHaveLength(1), { timeout: 10_000 });
    controller.abort();
    expect(await cancelled).toMatchObject({ ok: false, error: { code: "CANCELLED", message: "The search was cancelled by its caller" } });
  });

  it("drops an answer past the size cap with OUTPUT_TOO_LARGE", async () => {
    const { executor, fake } = await searchExecutor(provider);
    const huge = PAGES.map((page) => ({ ...page, snippet: "x".repeat(1024 * 1024) }));
    fake.answer({ body: successBody(provider, huge) });
    const result = await executor.callTool("web_search", { query: "node" });
    expect(result).toMatchObject({ ok: false, error: { code: "OUTPUT_TOO_LARGE", details: { maxResponseBytes: 2 * 1024 * 1024 } } });
  });

  it("answers SERVICE_UNAVAILABLE when the provider cannot be reached", async () => {
    const { executor, fake } = await searchExecutor(provider, { retries: 1 });
    await fake.close();
    const result = await executor.callTool("web_search", { query: "node" });
    expect(result).toMatchObject({ ok: false, error: { code: "SERVICE_UNAVAILABLE", details: { attempts: 2 } } });
    expect((result as { error: { message: string } }).error.message).toMatch(/could not be reached \(ECONNREFUSED\)/);
  });

  it("does not follow a redirect", async () => {
    const { executor, fake } = await searchExecutor(provider);
    fake.answer({ status: 302, headers: { location: "http://127.0.0.1:9/elsewhere" }, body: "" });
    const result = await executor.callTool("web_search", { query: "node" });
    expect(result).toMatchObject({ ok: false, error: { code: "SERVICE_UNAVAILABLE", details: { httpStatus: 302 } } });
    expect((result as { error: { message: string } }).error.message).toContain("set webSearch.url");
    expect(fake.requests).toHaveLength(1);
  });
});

describe("provider specifics", () => {
  it("Brave: a key it does not accept (422 SUBSCRIPTION_TOKEN_INVALID) is AUTH_FAILED", async () => {
    const { executor, fake } = await searchExecutor("brave");
    fake.answer({
      status: 422,
      body: { type: "ErrorResponse", error: { id: "x", status: 422, code: "SUBSCRIPTION_TOKEN_INVALID", detail: "The provided subscription token is invalid.", meta: { component: "authentication" } }, time: 1 },
    });
    const result = await executor.callTool("web_search", { query: "node" });
    expect(result).toMatchObject({ ok: false, error: { code: "AUTH_FAILED", details: { provider: "Brave Search", httpStatus: 422 } } });
    expect((result as { error: { message: string } }).error.message).toBe(
      "Brave Search rejected the API key (HTTP 422 SUBSCRIPTION_TOKEN_INVALID): SUBSCRIPTION_TOKEN_INVALID: The provided subscription token is invalid.",
    );
  });

  it("Brave: other 422s are the query's fault (INVALID_INPUT)", async () => {
    const { executor, fake } = await searchExecutor("brave");
    fake.answer({ status: 422, body: { type: "ErrorResponse", error: { id: "x", status: 422, code: "VALIDATION", detail: "Unable to validate request parameter(s)" } } });
    expect(await executor.callTool("web_search", { query: "node" })).toMatchObject({ ok: false, error: { code: "INVALID_INPUT" } });
  });

  it("Brave: waits for the rate-limit window that is used up (X-RateLimit-Reset), and a spent monthly quota is not waited for", async () => {
    const { executor, fake } = await searchExecutor("brave");
    fake.answer(
      { status: 429, headers: { "x-ratelimit-remaining": "0, 900", "x-ratelimit-reset": "0, 1419704" }, body: errorBody("brave", 429, "Request rate limit exceeded") },
      { body: successBody("brave") },
    );
    expect(await executor.callTool("web_search", { query: "node" })).toMatchObject({ ok: true });
    fake.answer({ status: 429, headers: { "x-ratelimit-remaining": "1, 0", "x-ratelimit-reset": "1, 1419704" }, body: errorBody("brave", 429, "Monthly quota exceeded") });
    const spent = await executor.callTool("web_search", { query: "node" });
    expect(spent).toMatchObject({ ok: false, error: { code: "SERVICE_UNAVAILABLE", details: { retryAfterMs: 1_419_704_000 } } });
  });

  it("Brave: snippets lose their markup and entities", async () => {
    const { executor, fake } = await searchExecutor("brave");
    fake.answer({ body: { type: "search", web: { results: [{ title: "A &amp; B", url: "https://a.example/", description: "<strong>Fast</strong> &lt;tags&gt; &#39;quoted&#39;", age: "2 days ago" }] } } });
    const result = await executor.callTool("web_search", { query: "node" });
    expect(result).toMatchObject({ ok: true, value: { results: [{ title: "A & B", url: "https://a.example/", snippet: "Fast <tags> 'quoted'", published: "2 days ago" }] } });
  });

  it("Brave: an answer without web results is an empty list", async () => {
    const { executor, fake } = await searchExecutor("brave");
    fake.answer({ body: { type: "search", query: { original: "zzzz" } } });
    expect(await executor.callTool("web_search", { query: "zzzz" })).toMatchObject({ ok: true, value: { results: [] } });
  });

  it("Tavily: a publication time with its zone becomes ISO 8601; a zoneless one is kept as written", async () => {
    const { executor, fake } = await searchExecutor("tavily");
    const page = (url: string, published_date: string) => ({ title: "t", url, content: "c", score: 0.5, published_date });
    fake.answer({ body: { query: "q", results: [page("https://a.example/", "Wed, 24 Apr 2024 12:00:00 GMT"), page("https://b.example/", "2024-04-24T12:00:00+02:00"), page("https://c.example/", "2024-04-24 12:00:00")] } });
    const result = await executor.callTool("web_search", { query: "news", timeRange: "day" });
    expect((result as { value: { results: Array<{ published: string }> } }).value.results.map((item) => item.published)).toEqual([
      "2024-04-24T12:00:00.000Z",
      "2024-04-24T10:00:00.000Z",
      "2024-04-24 12:00:00",
    ]);
  });

  it("Tavily: a used-up plan (432) is SERVICE_UNAVAILABLE, not retried", async () => {
    const { executor, fake } = await searchExecutor("tavily");
    fake.answer({ status: 432, body: { detail: { error: "This request exceeds your plan's set usage limit." } } });
    const result = await executor.callTool("web_search", { query: "node" });
    expect(result).toMatchObject({ ok: false, error: { code: "SERVICE_UNAVAILABLE", details: { httpStatus: 432 } } });
    expect((result as { error: { message: string } }).error.message).toMatch(/plan's usage limit is used up \(HTTP 432\); upgrade/);
    expect(fake.requests).toHaveLength(1);
  });

  it("SearXNG: safeSearch maps to its numbers, and a disabled json format (403) says how to enable it", async () => {
    const { executor, fake } = await searchExecutor("searxng", { safeSearch: "strict" });
    fake.answer({ status: 403, body: "Forbidden" });
    const result = await executor.callTool("web_search", { query: "node" });
    expect(result).toMatchObject({ ok: false, error: { code: "SERVICE_UNAVAILABLE", details: { httpStatus: 403 } } });
    expect((result as { error: { message: string } }).error.message).toContain('"json" in search.formats');
    expect(fake.requests[0]!.query.get("safesearch")).toBe("2");
  });

  it("a key a provider quotes back in an error is hidden from the message", async () => {
    const { executor, fake } = await searchExecutor("tavily");
    fake.answer({ status: 401, body: { detail: { error: `Invalid API key: ${KEY}` } } });
    const result = await executor.callTool("web_search", { query: "node" });
    expect(result).toMatchObject({ ok: false, error: { code: "AUTH_FAILED" } });
    expect(JSON.stringify(result)).not.toContain(KEY);
    expect((result as { error: { message: string } }).error.message).toContain("Invalid API key: [REDACTED]");
  });
});
