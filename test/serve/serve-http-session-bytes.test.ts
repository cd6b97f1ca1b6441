/**
 * `serveHttp` caps the request bytes one session has in flight (`maxSessionBytes`): each body is
 * bounded by `maxBodyBytes`, but a session sending many at once could otherwise hold
 * `maxConcurrentCalls` × `maxBodyBytes` of the host's memory. Past the cap, while another of its
 * requests is in flight, a request is answered 429 with a JSON-RPC error saying why; once an answer
 * goes out, its bytes are given back.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExecutor, type Executor, type ExecutorPlugin } from "../../src/index.js";
import { serveHttp, type HttpServing } from "../../src/serve.js";
import { deferred } from "../helpers/deferred.js";

const silentLogger = { debug() {}, info() {}, warn() {}, error() {} };
const HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const VERSION = "2025-06-18";
const PAD = "x".repeat(40_000);

/** One tool, `hold`, that answers when the test releases it: its request stays in flight until then. */
function holdingPlugin(): { plugin: ExecutorPlugin; release(): void; started: Promise<void> } {
  const started = deferred();
  const released = deferred();
  const plugin: ExecutorPlugin = {
    name: "holding",
    async start() {
      return {
        listTools: () => [{ name: "hold", description: "Answers when released.", inputSchema: { type: "object" }, parallel: true }],
        async callTool() {
          started.resolve();
          await released.promise;
          return { ok: true, value: "released" };
        },
        async close() {},
      };
    },
  };
  return { plugin, release: () => released.resolve(), started: started.promise };
}

let executor: Executor;
let serving: HttpServing;
let holding: ReturnType<typeof holdingPlugin>;
beforeAll(async () => {
  holding = holdingPlugin();
  executor = await createExecutor({ toolsConfig: false, mcpConfig: false, watch: false, logDir: false, logger: silentLogger, plugins: [holding.plugin] });
  serving = await serveHttp(executor, { maxSessionBytes: 64 * 1024 });
});
afterAll(async () => {
  await serving?.close();
  await executor?.close();
});

const post = (id: string | undefined, body: unknown) =>
  fetch(serving.url, { method: "POST", headers: { ...HEADERS, ...(id ? { "mcp-session-id": id, "mcp-protocol-version": VERSION } : {}) }, body: JSON.stringify(body) });

const callHold = (requestId: number) => ({ jsonrpc: "2.0", id: requestId, method: "tools/call", params: { name: "hold", arguments: { pad: PAD } } });

describe("serveHttp: request bytes in flight per session", () => {
  it("answers 429 past maxSessionBytes while another request of the session is in flight, and accepts again once it is answered", async () => {
    const opened = await post(undefined, { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: "bytes", version: "1" } } });
    await opened.text();
    const id = opened.headers.get("mcp-session-id")!;
    expect((await post(id, { jsonrpc: "2.0", method: "notifications/initialized" })).status).toBe(202);

    const first = post(id, callHold(2));
    await holding.started;
    // 40 KB in flight; another 40 KB would pass the 64 KiB cap.
    const refused = await post(id, callHold(3));
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("1");
    expect(await refused.json()).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32000, message: "Too Many Requests: this session's requests in flight would hold more than 65536 bytes (maxSessionBytes); wait for an answer before sending more" },
    });
    // A small request of the same session still goes through.
    expect((await post(id, { jsonrpc: "2.0", id: 4, method: "ping" })).status).toBe(200);

    holding.release();
    const answered = await first;
    expect(answered.status).toBe(200);
    expect(await answered.text()).toContain("released");
    const again = await post(id, callHold(5));
    expect(again.status).toBe(200);
    expect(await again.text()).toContain("released");
  }, 60_000);

  it("refuses a maxSessionBytes that is not a whole number above 0", async () => {
    await expect(serveHttp(executor, { maxSessionBytes: 0 })).rejects.toMatchObject({ code: "INVALID_OPTIONS", message: expect.stringContaining("maxSessionBytes") });
  });
});
