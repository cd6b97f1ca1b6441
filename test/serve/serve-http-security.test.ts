/** serveHttp's hardening: loopback by default, token off loopback, 401/403/413/404, stateless mode, idle sessions, per-session limit. */
import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Executor } from "../../src/index.js";
import { createMcpServer, serveHttp, type HttpServing } from "../../src/serve.js";
import { httpClient, servedProject } from "./serve-test-helpers.js";

let executor: Executor;
const servings: HttpServing[] = [];
beforeAll(async () => {
  ({ executor } = await servedProject({ watch: false }));
});
afterAll(async () => {
  await Promise.all(servings.map((serving) => serving.close()));
  await executor?.close();
});

async function serve(options: Parameters<typeof serveHttp>[1] = {}) {
  const serving = await serveHttp(executor, options);
  servings.push(serving);
  return serving;
}

const initialize = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } });
const post = (url: string, headers: Record<string, string> = {}, body = initialize) =>
  fetch(url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers }, body });

describe("serveHttp security", () => {
  it("refuses to bind off loopback without a token", async () => {
    await expect(serveHttp(executor, { host: "0.0.0.0" })).rejects.toMatchObject({ code: "INVALID_OPTIONS", message: expect.stringContaining("without a token") });
    // An empty token would be met by a request that sends none.
    await expect(serveHttp(executor, { token: "" })).rejects.toMatchObject({ code: "INVALID_OPTIONS", message: 'Expected token to be a non-empty string, got ""' });
  });

  it("refuses a limit that is not a whole number in range, naming the option, before anything listens", async () => {
    await expect(serveHttp(executor, { maxBodyBytes: 0 })).rejects.toMatchObject({ code: "INVALID_OPTIONS", message: "Expected maxBodyBytes to be a whole number of bytes above 0, got 0" });
    await expect(serveHttp(executor, { closeTimeoutMs: -1 })).rejects.toMatchObject({ code: "INVALID_OPTIONS", message: "Expected closeTimeoutMs to be a whole number of ms from 0, got -1" });
    await expect(serveHttp(executor, { maxConcurrentCalls: 0 })).rejects.toMatchObject({ code: "INVALID_OPTIONS", message: "Expected maxConcurrentCalls to be a whole number above 0, got 0" });
    expect(() => createMcpServer(executor, { maxConcurrentCalls: 1.5 })).toThrow("Expected maxConcurrentCalls to be a whole number above 0, got 1.5");
  });

  it("answers 401 without the bearer token or with a wrong one, and serves with the right one", async () => {
    const serving = await serve({ token: "correct horse battery staple" });
    expect((await post(serving.url)).status).toBe(401);
    const wrong = await post(serving.url, { authorization: "Bearer correct horse battery stapl" });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get("www-authenticate")).toBe("Bearer");
    const client = await httpClient(serving.url, { authorization: "Bearer correct horse battery staple" });
    expect((await client.callTool({ name: "everything__echo", arguments: { message: "ok" } })).content).toEqual([{ type: "text", text: "Echo: ok" }]);
    await client.close();
  });

  it("answers 403 to a foreign Origin or Host (DNS rebinding), and accepts loopback origins", async () => {
    const serving = await serve();
    expect((await post(serving.url, { origin: "http://evil.example" })).status).toBe(403);
    const port = new URL(serving.url).port;
    // fetch may not set Host: node:http can, as a rebinding browser's request would carry it.
    const rebound = await new Promise<number>((resolve, reject) => {
      const request = httpRequest(serving.url, { method: "POST", headers: { host: `evil.example:${port}`, "content-type": "application/json" } }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      request.once("error", reject);
      request.end(initialize);
    });
    expect(rebound).toBe(403);
    expect((await post(serving.url, { origin: `http://localhost:${port}` })).status).toBe(200);
  });

  it("answers 413 past the body limit, 404 for an unknown session, another server's session and another path", async () => {
    const serving = await serve({ maxBodyBytes: 1024 });
    expect((await post(serving.url, {}, JSON.stringify({ padding: "x".repeat(2048) }))).status).toBe(413);
    const list = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" });
    const unknown = await post(serving.url, { "mcp-session-id": "no-such-session" }, list);
    expect(unknown.status).toBe(404);
    const other = await serve();
    const opened = await post(other.url);
    await opened.body?.cancel();
    const foreign = await post(serving.url, { "mcp-session-id": opened.headers.get("mcp-session-id")!, "mcp-protocol-version": "2025-06-18" }, list);
    expect([foreign.status, await foreign.json()]).toEqual([404, { jsonrpc: "2.0", error: { code: -32001, message: "Session not found: it ended or belongs to another server; initialize a new one" }, id: null }]);
    expect((await post(serving.url.replace(/\/mcp$/, "/other"))).status).toBe(404);
  });

  it("serves without sessions in stateless mode", async () => {
    const serving = await serve({ stateless: true });
    const response = await post(serving.url);
    expect(response.headers.get("mcp-session-id")).toBeNull();
    const client = await httpClient(serving.url);
    expect((await client.listTools()).tools.length).toBeGreaterThan(3);
    expect((await client.callTool({ name: "echo", arguments: { n: 1 } })).structuredContent).toEqual({ n: 1 });
    await client.close();
  });

  it("closes a session idle past sessionIdleMs (its client then gets 404), and keeps one whose stream is open", async () => {
    const serving = await serve({ sessionIdleMs: 100 });
    const open = async () => {
      const response = await post(serving.url);
      await response.body?.cancel();
      return response.headers.get("mcp-session-id")!;
    };
    const idle = await open();
    const streaming = await open();
    const stream = await fetch(serving.url, { headers: { accept: "text/event-stream", "mcp-session-id": streaming, "mcp-protocol-version": "2025-06-18" } });
    expect(stream.status).toBe(200);
    const ping = (id: string) => post(serving.url, { "mcp-session-id": id, "mcp-protocol-version": "2025-06-18" }, JSON.stringify({ jsonrpc: "2.0", id: 9, method: "ping" }));
    // Each probe is itself a request: probes farther apart than the idle time let the session expire between them.
    await vi.waitFor(async () => expect((await ping(idle)).status).toBe(404), { timeout: 5_000, interval: 300 });
    const kept = await ping(streaming);
    expect(kept.status).toBe(200);
    await kept.body?.cancel();
    await stream.body?.cancel();
    await expect(serveHttp(executor, { sessionIdleMs: 0 })).rejects.toThrow("Expected sessionIdleMs to be a whole number of ms above 0, got 0");
  });

  it("answers QUEUE_FULL past a session's concurrent-call limit", async () => {
    const serving = await serve({ maxConcurrentCalls: 2 });
    const client = await httpClient(serving.url);
    const slow = { name: "everything__trigger-long-running-operation", arguments: { duration: 1, steps: 1 } };
    const results = await Promise.all([client.callTool(slow), client.callTool(slow), client.callTool(slow)]);
    expect(results.map((result) => (result._meta as Record<string, unknown> | undefined)?.["toolexec/errorCode"] ?? "ok")).toEqual(["ok", "ok", "QUEUE_FULL"]);
    await client.close();
  });
});
