/** The light signal a session hands the SDK: the SDK's own Client must honour it like an AbortSignal. */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { createRequestSignal } from "../../src/plugins/mcp/request-signal.js";
import { deferred } from "../helpers/deferred.js";

async function connectedPair() {
  const server = new McpServer({ name: "hang", version: "1.0.0" });
  let cancelled!: () => void;
  const serverSawCancel = new Promise<void>((resolve) => (cancelled = resolve));
  const hangStarted = deferred();
  server.registerTool("hang", { description: "Never answers; notes the cancel." }, (extra) => {
    hangStarted.resolve();
    extra.signal.addEventListener("abort", () => cancelled());
    return new Promise(() => {});
  });
  server.registerTool("quick", { description: "Answers at once." }, () => ({ content: [{ type: "text", text: "done" }] }));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "test", version: "1.0.0" });
  await client.connect(clientSide);
  return { client, serverSawCancel, hangStarted: hangStarted.promise, close: () => Promise.all([client.close(), server.close()]) };
}

describe("createRequestSignal", () => {
  it("withdraws an SDK request: it rejects with the reason and the server hears notifications/cancelled", async () => {
    const { client, serverSawCancel, hangStarted, close } = await connectedPair();
    const withdraw = createRequestSignal();
    const answer = client.request({ method: "tools/call", params: { name: "hang", arguments: {} } }, CallToolResultSchema, { signal: withdraw.signal });
    await hangStarted; // the request reached the server, so there is something to cancel there
    withdraw.abort(new Error("the answer stream closed"));
    await expect(answer).rejects.toThrow("the answer stream closed");
    await serverSawCancel;
    await close();
  });

  it("leaves an answered request alone, and refuses to send once aborted", async () => {
    const { client, close } = await connectedPair();
    const kept = createRequestSignal();
    const result = await client.request({ method: "tools/call", params: { name: "quick", arguments: {} } }, CallToolResultSchema, { signal: kept.signal });
    expect(result.content).toEqual([{ type: "text", text: "done" }]);
    kept.abort(new Error("too late"));
    const early = createRequestSignal();
    early.abort(new Error("before it was sent"));
    await expect(client.request({ method: "tools/call", params: { name: "quick", arguments: {} } }, CallToolResultSchema, { signal: early.signal })).rejects.toThrow("before it was sent");
    await close();
  });
});
