/**
 * Scoped API keys and profiles through every door of a served executor, with real processes (a
 * script tool that leaves a marker when it runs, code mode's runtime, server-everything over stdio):
 * a read-tier key cannot run a destructive tool directly, through call_tool, from code mode or from
 * a saved tool; expired and revoked keys are refused; a profile hides a server and renames a tool.
 */
import { existsSync, rmSync } from "node:fs";
import path from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttpTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFileStore } from "../../src/core/store/file-store.js";
import { createExecutor, type Executor } from "../../src/index.js";
import { createApiKey, revokeApiKey, serveHttp, type HttpServing } from "../../src/serve.js";
import { createTempProject, toolEntry, type TempProject } from "../helpers/temp-project.js";
import { EVERYTHING } from "../mcp/mcp-test-helpers.js";
import { httpClient, silentLogger } from "../serve/serve-test-helpers.js";

let project: TempProject;
let executor: Executor;
let serving: HttpServing;
let store: ReturnType<typeof createFileStore>;
const clients: Client[] = [];

beforeAll(async () => {
  project = createTempProject({ sharedByFile: true });
  project.useFixtures("echo.mjs", "touch-marker.sh");
  project.write("tools.json", {
    tools: [
      toolEntry("peek", "node", "echo.mjs", { parallel: true, annotations: { readOnlyHint: true } }),
      toolEntry("wipe", "shell", "touch-marker.sh", { description: "Destroys things (leaves a marker)." }),
    ],
    codeExecution: { enabled: true, poolSize: 1 },
    toolSearch: { offerTool: true },
    profiles: { readers: { exclude: ["everything"], rename: { peek: "look" }, descriptions: { peek: "Look at things." } } },
  });
  project.write("mcp.json", { mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, "stdio"] } } });
  executor = await createExecutor({ root: project.root, logDir: false, logger: silentLogger, watch: false });
  await executor.saveTool({
    name: "run_wipe",
    description: "Runs wipe",
    inputSchema: { type: "object" },
    code: "const r = call_tool('wipe', {});\nif (!r.ok) throw new Error(r.error.code + ': ' + r.error.message);\nr.value",
  });
  store = createFileStore(project.root);
  serving = await serveHttp(executor, { keys: store });
}, 120_000);
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
  await serving?.close();
  await store?.close();
  await executor?.close();
});

async function clientWith(key: string, url = serving.url): Promise<Client> {
  const client = await httpClient(url, { authorization: `Bearer ${key}` });
  clients.push(client);
  return client;
}

const errorCode = (result: Record<string, unknown>) => (result._meta as Record<string, unknown> | undefined)?.["toolexec/errorCode"];
const text = (result: Record<string, unknown>) => (result.content as Array<{ text?: string }>).map((part) => part.text ?? "").join("\n");
const marker = () => path.join(project.root, "marker");

async function statusOf(key: string | undefined, url = serving.url) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...(key === undefined ? {} : { authorization: `Bearer ${key}` }) },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } }),
  });
  return { status: response.status, body: await response.text(), challenge: response.headers.get("www-authenticate") };
}

describe("API keys", () => {
  it("once a key exists, a request without a credential is refused 401, on loopback too", async () => {
    await createApiKey(store, { name: "first", tier: "read" });
    expect(await statusOf(undefined)).toMatchObject({ status: 401, challenge: "Bearer" });
  });

  it("a read-tier key cannot run a destructive tool by any door: direct, call_tool, code mode, a saved tool", async () => {
    const { key } = await createApiKey(store, { name: "reader", tier: "read" });
    const client = await clientWith(key);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain("peek");
    expect(names).not.toContain("wipe");
    expect((await client.callTool({ name: "peek", arguments: { a: 1 } })).isError).toBeFalsy();

    const direct = await client.callTool({ name: "wipe", arguments: {} });
    expect([direct.isError, errorCode(direct)]).toEqual([true, "FORBIDDEN"]);
    expect(text(direct)).toContain(`"wipe" is a destructive tool and key`);
    const viaCode = await client.callTool({ name: "code_execution", arguments: { code: "const r = call_tool('wipe', {}); [r.ok ? 'ran' : r.error.code, 'wipe' in tools.local]" } });
    // Code mode does not list it (code-mode-view.test.ts), and a call naming it is refused.
    expect(text(viaCode)).toContain('["FORBIDDEN",false]');
    const viaSaved = await client.callTool({ name: "run_wipe", arguments: {} });
    expect(viaSaved.isError).toBe(true);
    expect(text(viaSaved)).toContain("FORBIDDEN");
    expect(existsSync(marker())).toBe(false);
  }, 60_000);

  it("an expired key and a revoked key are refused 401 with invalid_token", async () => {
    const expired = await createApiKey(store, { name: "old", tier: "destructive", expiresInMs: 1_000 }, Date.now() - 60_000);
    const revoked = await createApiKey(store, { name: "gone", tier: "destructive" });
    expect(await statusOf(revoked.key)).toMatchObject({ status: 200 });
    await revokeApiKey(store, revoked.id);
    for (const [key, why] of [
      [expired.key, "expired"],
      [revoked.key, "revoked"],
      [`${revoked.key.slice(0, -2)}xx`, "Unknown API key"],
    ] as const) {
      const answer = await statusOf(key);
      expect(answer.status).toBe(401);
      expect(answer.body).toContain(why);
      expect(answer.challenge).toContain('error="invalid_token"');
    }
  });

  it("a session belongs to the key that opened it: another key on its id is answered as an unknown session", async () => {
    const alice = await createApiKey(store, { name: "alice", tier: "read" });
    const bob = await createApiKey(store, { name: "bob", tier: "read" });
    const opened = await fetch(serving.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${alice.key}` },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } }),
    });
    await opened.body?.cancel();
    const session = opened.headers.get("mcp-session-id")!;
    const hijack = await fetch(serving.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${bob.key}`, "mcp-session-id": session },
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list", params: {} }),
    });
    await hijack.body?.cancel();
    expect(hijack.status).toBe(404);
  });

  it("a destructive-tier key runs the destructive tool (the marker the refusals above never left)", async () => {
    const { key } = await createApiKey(store, { name: "admin", tier: "destructive" });
    const client = await clientWith(key);
    const result = await client.callTool({ name: "wipe", arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(existsSync(marker())).toBe(true);
  });
});

describe("profiles", () => {
  it("a profile hides a server and renames a tool, for listing and every door", async () => {
    const { key } = await createApiKey(store, { name: "profiled", tier: "read", profile: "readers" });
    for (const url of [serving.url, `${serving.url}/p/readers`]) {
      const client = await clientWith(key, url);
      const tools = (await client.listTools()).tools;
      expect(tools.some((tool) => tool.name.startsWith("everything__"))).toBe(false);
      expect(tools.find((tool) => tool.name === "look")).toMatchObject({ description: "Look at things." });
      expect(tools.some((tool) => tool.name === "peek")).toBe(false);
      expect((await client.callTool({ name: "look", arguments: { x: 1 } })).isError).toBeFalsy();
      const hidden = await client.callTool({ name: "everything__echo", arguments: { message: "hi" } });
      expect([errorCode(hidden), text(hidden)]).toEqual(["TOOL_NOT_FOUND", 'TOOL_NOT_FOUND: No tool named "everything__echo"']);
      const viaCode = await client.callTool({ name: "code_execution", arguments: { code: "['everything' in tools, call_tool('everything', 'echo', { message: 'hi' }).error?.code]" } });
      expect(text(viaCode)).toContain('[false,"TOOL_NOT_FOUND"]');
      const search = await client.callTool({ name: "search_tools", arguments: { query: "echo a message" } });
      expect(text(search)).not.toContain("everything__");
    }
  }, 60_000);

  it("a 2026-07-28 client (no session, a fresh server per request) gets the same view and the same refusals", async () => {
    const { key } = await createApiKey(store, { name: "modern", tier: "read", profile: "readers" });
    rmSync(marker(), { force: true });
    const client = new ModernClient({ name: "modern-test", version: "2.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
    await client.connect(new ModernHttpTransport(new URL(serving.url), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
    try {
      const tools = (await client.listTools()).tools;
      expect(tools.some((tool) => tool.name.startsWith("everything__"))).toBe(false);
      expect(tools.find((tool) => tool.name === "look")).toMatchObject({ description: "Look at things." });
      expect(tools.some((tool) => tool.name === "wipe" || tool.name === "peek")).toBe(false);
      expect((await client.callTool({ name: "look", arguments: { x: 1 } })).isError).toBeFalsy();
      const hidden = (await client.callTool({ name: "everything__echo", arguments: { message: "hi" } })) as Record<string, unknown>;
      expect(errorCode(hidden)).toBe("TOOL_NOT_FOUND");
      const destructive = (await client.callTool({ name: "wipe", arguments: {} })) as Record<string, unknown>;
      expect(errorCode(destructive)).toBe("FORBIDDEN");
      expect(existsSync(marker())).toBe(false);
    } finally {
      await client.close();
    }
  }, 60_000);

  it("a key bound to a profile is refused on another profile's path; an unknown profile is 404", async () => {
    const { key } = await createApiKey(store, { name: "bound", tier: "read", profile: "readers" });
    expect((await statusOf(key, `${serving.url}/p/other`)).status).toBe(403);
    const { key: free } = await createApiKey(store, { name: "free", tier: "read" });
    expect((await statusOf(free, `${serving.url}/p/nope`)).status).toBe(404);
  });
});
