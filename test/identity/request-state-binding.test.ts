/**
 * A 2026-07-28 `requestState` (MRTR) is bound to the principal it was minted for: the HMAC covers
 * the principal, so a state issued to Alice's key is refused when Bob's key replays it with the same
 * arguments and answer, and still accepted from Alice.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { createFileStore } from "../../src/core/store/file-store.js";
import { createExecutor, type Executor } from "../../src/index.js";
import { createApiKey, serveHttp, type HttpServing } from "../../src/serve.js";
import { createTempProject } from "../helpers/temp-project.js";
import { silentLogger } from "../serve/serve-test-helpers.js";

const MODERN = "2026-07-28";
let executor: Executor;
let serving: HttpServing;
let store: ReturnType<typeof createFileStore>;

beforeAll(async () => {
  const project = createTempProject();
  project.write("tools.json", { tools: [] });
  // The host has no person of its own to ask: each answer comes from the client, round by round.
  executor = await createExecutor({ root: project.root, logDir: false, logger: silentLogger, watch: false, onHumanInput: async () => "the host was asked" });
  store = createFileStore(project.root);
  serving = await serveHttp(executor, { keys: store });
}, 60_000);
afterAll(async () => {
  await serving?.close();
  await store?.close();
  await executor?.close();
});

/** A raw 2026-07-28 `tools/call` with `key` as the bearer credential, as a client sends its retry. */
async function modernCall(key: string, params: Record<string, unknown>) {
  const envelope = { "io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" }, "io.modelcontextprotocol/clientCapabilities": { elicitation: {} } };
  const response = await fetch(serving.url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${key}`, "mcp-protocol-version": MODERN, "mcp-method": "tools/call", "mcp-name": String(params.name) },
    body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { ...params, _meta: envelope } }),
  });
  const text = await response.text();
  const data = text.startsWith("{") ? text : (text.split("\n").find((line) => line.startsWith("data: ")) ?? "").slice(6);
  return JSON.parse(data) as { result?: Record<string, unknown>; error?: { code: number; message: string } };
}

it("refuses Alice's requestState replayed by Bob, and accepts it from Alice", async () => {
  const alice = (await createApiKey(store, { name: "alice", tier: "destructive" })).key;
  const bob = (await createApiKey(store, { name: "bob", tier: "destructive" })).key;
  const question = { name: "request_human_input", arguments: { question: "Deploy?", options: ["yes", "no"] } };
  const asked = await modernCall(alice, question);
  expect(asked.result).toMatchObject({ resultType: "input_required" });
  const replay = { ...question, requestState: asked.result!.requestState, inputResponses: { request_human_input: { action: "accept", content: { answer: "yes" } } } };

  expect((await modernCall(bob, replay)).error).toMatchObject({ code: -32602, message: "Invalid or expired requestState" });
  expect((await modernCall(alice, replay)).result).toMatchObject({ content: [{ type: "text", text: "yes" }] });
}, 30_000);
