/**
 * `toolexec serve --http` speaks 2026-07-28 to SDK v2 clients (no session; request_human_input as
 * inputRequired; tool-list changes through subscriptions/listen) and 2025-11-25 to v1 clients
 * (sessions, elicitation, list_changed), from the same real processes. The MRTR continuation
 * lands on another process sharing the project and the HMAC key.
 */
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as LegacyHttpTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { createTempProject, toolEntry, type TempProject } from "../../helpers/temp-project.js";
import { MODERN, modernClient, startServe, type ServeProcess } from "./serve-process.js";

let project: TempProject;
let first: ServeProcess;
let second: ServeProcess;
const tools = [toolEntry("echo", "node", "echo.mjs", { parallel: true })];

beforeAll(async () => {
  project = createTempProject({ sharedByFile: true, tools: { tools } });
  project.useFixtures("echo.mjs");
  [first, second] = await Promise.all([startServe(project.root), startServe(project.root)]);
}, 60_000);
afterAll(async () => {
  await Promise.all([first?.stop(), second?.stop()]);
});

/** A raw 2026-07-28 `tools/call`, as a client would send its retry. */
async function rawModernCall(url: string, params: Record<string, unknown>) {
  const envelope = { "io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" }, "io.modelcontextprotocol/clientCapabilities": { elicitation: {} } };
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": MODERN, "mcp-method": "tools/call", "mcp-name": String(params.name) },
    body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { ...params, _meta: envelope } }),
  });
  const text = await response.text();
  const data = text.startsWith("{") ? text : (text.split("\n").find((line) => line.startsWith("data: ")) ?? "").slice(6);
  return JSON.parse(data) as { result?: Record<string, unknown>; error?: { code: number; message: string } };
}

it("serves a 2026-07-28 client with no session: lists and calls tools", async () => {
  const seen: { url: string; body: string; status: number; sessionHeader: string | null }[] = [];
  const client = await modernClient(first.url, { seen });
  expect(client.getNegotiatedProtocolVersion()).toBe(MODERN);
  const names = (await client.listTools()).tools.map((tool) => tool.name);
  expect(names).toEqual(expect.arrayContaining(["echo", "request_human_input"]));
  expect((await client.callTool({ name: "echo", arguments: { era: "2026" } })).structuredContent).toEqual({ runtime: "node", arguments: { era: "2026" } });
  expect(seen.some((request) => request.body.includes('"initialize"'))).toBe(false);
  expect(seen.every((request) => request.body.includes(`"io.modelcontextprotocol/protocolVersion":"${MODERN}"`))).toBe(true);
  expect(seen.every((request) => request.sessionHeader === null && request.status === 200)).toBe(true);
  await client.close();
}, 30_000);

it("asks request_human_input's question as inputRequired, and the answer's continuation runs on another process", async () => {
  const seen: { url: string; body: string; status: number; sessionHeader: string | null }[] = [];
  // The load balancer's choice: the retry carrying the requestState goes to the second process.
  const route = (body: string, url: string) => (body.includes('"requestState"') ? second.url : url);
  const client = await modernClient(first.url, { answer: "blue", route, seen });
  const result = await client.callTool({ name: "request_human_input", arguments: { question: "Which colour?", options: ["red", "blue"] } });
  expect(result).toMatchObject({ content: [{ type: "text", text: "blue" }] });
  expect(result.isError).toBeFalsy();
  const calls = seen.filter((request) => request.body.includes('"tools/call"'));
  expect(calls.map((call) => [call.url, call.body.includes('"requestState"')])).toEqual([
    [first.url, false],
    [second.url, true],
  ]);
  await client.close();
}, 30_000);

it("refuses a forged or moved requestState, and an answer outside the options", async () => {
  const question = { name: "request_human_input", arguments: { question: "Ship it?", options: ["yes", "no"] } };
  const asked = await rawModernCall(first.url, question);
  expect(asked.result).toMatchObject({ resultType: "input_required", inputRequests: { request_human_input: { method: "elicitation/create" } } });
  const state = asked.result!.requestState as string;
  const answer = { request_human_input: { action: "accept", content: { answer: "yes" } } };

  const tampered = state.slice(0, -3) + (state.endsWith("AAA") ? "BBB" : "AAA");
  expect((await rawModernCall(second.url, { ...question, requestState: tampered, inputResponses: answer })).error).toMatchObject({ code: -32602, message: "Invalid or expired requestState" });
  const moved = await rawModernCall(second.url, { name: "request_human_input", arguments: { question: "Delete everything?", options: ["yes", "no"] }, requestState: state, inputResponses: answer });
  expect(moved.error).toMatchObject({ code: -32602, message: expect.stringContaining("belongs to another call") });
  const outside = await rawModernCall(second.url, { ...question, requestState: state, inputResponses: { request_human_input: { action: "accept", content: { answer: "maybe" } } } });
  expect(outside.result).toMatchObject({ isError: true, _meta: { "toolexec/errorCode": "INVALID_OUTPUT" } });
  const answered = await rawModernCall(second.url, { ...question, requestState: state, inputResponses: answer });
  expect(answered.result).toMatchObject({ content: [{ type: "text", text: "yes" }] });
}, 30_000);

it("refuses the continuation on a process with another key", async () => {
  const stranger = await startServe(project.root, { TOOLEXEC_REQUEST_STATE_KEY: "another key of at least thirty-two bytes" });
  try {
    const question = { name: "request_human_input", arguments: { question: "Which key?" } };
    const asked = await rawModernCall(first.url, question);
    const retried = await rawModernCall(stranger.url, { ...question, requestState: asked.result!.requestState, inputResponses: { request_human_input: { action: "accept", content: { answer: "mine" } } } });
    expect(retried.error).toMatchObject({ code: -32602, message: "Invalid or expired requestState" });
  } finally {
    await stranger.stop();
  }
}, 30_000);

it("tells a 2026 client listening with subscriptions/listen, and a 2025 session, that the tools changed", async () => {
  const modern = await modernClient(second.url);
  const modernChanged = vi.fn();
  modern.setNotificationHandler("notifications/tools/list_changed", modernChanged);
  const subscription = await modern.listen({ toolsListChanged: true });
  expect(subscription.honoredFilter).toMatchObject({ toolsListChanged: true });

  const legacy = new LegacyClient({ name: "legacy-test", version: "1.0.0" }, { capabilities: { elicitation: {} } });
  const legacyChanged = vi.fn();
  legacy.setNotificationHandler(ToolListChangedNotificationSchema, legacyChanged);
  await legacy.connect(new LegacyHttpTransport(new URL(second.url)));

  project.write("tools.json", { tools: [...tools, toolEntry("echo_again", "node", "echo.mjs", { parallel: true })] });
  await vi.waitFor(() => expect(modernChanged).toHaveBeenCalled(), { timeout: 15_000, interval: 50 });
  await vi.waitFor(() => expect(legacyChanged).toHaveBeenCalled(), { timeout: 15_000, interval: 50 });
  expect((await modern.listTools()).tools.map((tool) => tool.name)).toContain("echo_again");
  await subscription.close();
  await Promise.all([modern.close(), legacy.close()]);
  project.write("tools.json", { tools });
}, 40_000);

it("still serves a 2025-11-25 client as before: a session, and request_human_input through elicitation", async () => {
  const legacy = new LegacyClient({ name: "legacy-test", version: "1.0.0" }, { capabilities: { elicitation: {} } });
  legacy.setRequestHandler(ElicitRequestSchema, async (request) => ({ action: "accept", content: { answer: `heard: ${request.params.message}` } }));
  const transport = new LegacyHttpTransport(new URL(first.url));
  await legacy.connect(transport);
  expect(transport.sessionId).toEqual(expect.any(String));
  expect(legacy.getServerVersion()?.name).toBe("toolexec");
  expect((transport as unknown as { _protocolVersion?: string })._protocolVersion ?? "2025-11-25").toBe("2025-11-25");
  const result = await legacy.callTool({ name: "request_human_input", arguments: { question: "Still there?" } });
  expect(result.content).toEqual([{ type: "text", text: "heard: Still there?" }]);
  await legacy.close();
}, 30_000);
