/**
 * `serveHttp` keeps at most `maxSessions` sessions: clients that never close (10,000 of them here)
 * cannot grow its memory until the 30-minute idle expiry. Past the cap a new session closes the one
 * idle the longest; a session with a request open is never closed for room, and when every session
 * has one, `initialize` is answered 503.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExecutor, type Executor } from "../../src/index.js";
import { serveHttp, type HttpServing } from "../../src/serve.js";

const silentLogger = { debug() {}, info() {}, warn() {}, error() {} };
const HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const INITIALIZE = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "flood", version: "1" } } });
const INITIALIZED = JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" });

let executor: Executor;
beforeAll(async () => {
  executor = await createExecutor({ toolsConfig: false, mcpConfig: false, watch: false, logDir: false, logger: silentLogger });
});
afterAll(async () => executor?.close());

/** A new session's id (its initialize answer read to the end, so no request of it stays open). */
async function openSession(url: string): Promise<Response & { id: string | null }> {
  const response = await fetch(url, { method: "POST", headers: HEADERS, body: INITIALIZE });
  await response.text();
  return Object.assign(response, { id: response.headers.get("mcp-session-id") });
}

/** The status a request of session `id` gets: 202 while it is served, 404 once it is closed. */
async function statusOf(url: string, id: string): Promise<number> {
  const response = await fetch(url, { method: "POST", headers: { ...HEADERS, "mcp-session-id": id, "mcp-protocol-version": "2025-06-18" }, body: INITIALIZED });
  await response.text();
  return response.status;
}

describe("serveHttp: the session cap", () => {
  let serving: HttpServing;
  afterAll(async () => serving?.close());

  it("keeps at most maxSessions of 10,000 never-closed sessions, the oldest idle closed first", async () => {
    serving = await serveHttp(executor, { maxSessions: 100 });
    const first = await openSession(serving.url);
    const busy = await openSession(serving.url);
    // A notification stream: a request of `busy` stays open throughout.
    const stream = await fetch(serving.url, { headers: { accept: "text/event-stream", "mcp-session-id": busy.id!, "mcp-protocol-version": "2025-06-18" } });
    expect(stream.status).toBe(200);
    const ids: string[] = [];
    for (let batch = 0; batch < 200; batch++) {
      const opened = await Promise.all(Array.from({ length: 50 }, () => openSession(serving.url)));
      for (const response of opened) {
        expect(response.status).toBe(200);
        ids.push(response.id!);
      }
    }
    expect(ids).toHaveLength(10_000);
    expect(await statusOf(serving.url, first.id!)).toBe(404);
    expect(await statusOf(serving.url, ids[0]!)).toBe(404);
    expect(await statusOf(serving.url, busy.id!)).toBe(202);
    // The newest 99 (the cap less the busy one) are all still served.
    const newest = ids.slice(-99);
    expect(await Promise.all(newest.map((id) => statusOf(serving.url, id)))).toEqual(newest.map(() => 202));
    expect(await statusOf(serving.url, ids.at(-100)!)).toBe(404);
    await stream.body?.cancel();
  }, 300_000);

  it("answers initialize 503 when every session has a request open", async () => {
    const small = await serveHttp(executor, { maxSessions: 1 });
    try {
      const only = await openSession(small.url);
      const stream = await fetch(small.url, { headers: { accept: "text/event-stream", "mcp-session-id": only.id!, "mcp-protocol-version": "2025-06-18" } });
      const refused = await fetch(small.url, { method: "POST", headers: HEADERS, body: INITIALIZE });
      expect(refused.status).toBe(503);
      expect(await refused.json()).toMatchObject({ error: { message: "Too many sessions: all 1 have a request open; retry later" } });
      await stream.body?.cancel();
    } finally {
      await small.close();
    }
  });

  it("refuses a maxSessions that is not a whole number above 0", async () => {
    await expect(serveHttp(executor, { maxSessions: 0 })).rejects.toMatchObject({ code: "INVALID_OPTIONS", message: "Expected maxSessions to be a whole number above 0, got 0" });
  });
});
