/**
 * SSE resumption (SEP-1699): a POST's stream starts with a priming event (an id, a `retry` hint); a
 * client whose stream broke mid-call reconnects with `Last-Event-ID` and gets what it missed, the
 * call's result included. The per-session store is bounded.
 */
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createExecutor, type Executor } from "../../src/index.js";
import { serveHttp, type HttpServing } from "../../src/serve.js";
import { createSessionEventStore } from "../../src/serve/session-event-store.js";
import { createTempProject } from "../helpers/temp-project.js";
import { silentLogger } from "./serve-test-helpers.js";

const UPSTREAM = path.join(import.meta.dirname, "..", "fixtures", "serve", "conformance-upstream.mjs");

let executor: Executor;
let serving: HttpServing;
let plainServing: HttpServing;
beforeAll(async () => {
  const project = createTempProject({ sharedByFile: true, tools: { tools: [] } });
  project.write("mcp.json", { mcpServers: { upstream: { command: process.execPath, args: [UPSTREAM], prefix: false } } });
  executor = await createExecutor({ root: project.root, logDir: false, logger: silentLogger });
  serving = await serveHttp(executor);
  plainServing = await serveHttp(executor, { resumability: false });
});
afterAll(async () => {
  await Promise.all([serving?.close(), plainServing?.close()]);
  await executor?.close();
});

/** A session opened by the SDK's client; its id for raw requests. */
async function openSession(url: string): Promise<{ sessionId: string; close(): Promise<void> }> {
  const client = new Client({ name: "resume-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  return { sessionId: transport.sessionId!, close: () => client.close() };
}

const headers = (sessionId: string) => ({ "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-session-id": sessionId, "mcp-protocol-version": "2025-11-25" });

/** SSE events of a response body, as they come: `{ id?, retry?, data }`. */
async function* events(body: ReadableStream<Uint8Array>): AsyncGenerator<{ id?: string; retry?: string; data: string }> {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffered += value;
      let end: number;
      while ((end = buffered.indexOf("\n\n")) !== -1) {
        const fields = Object.fromEntries(buffered.slice(0, end).split("\n").map((line) => [line.slice(0, line.indexOf(":")), line.slice(line.indexOf(":") + 1).trim()]));
        buffered = buffered.slice(end + 2);
        yield { ...(fields.id ? { id: fields.id } : {}), ...(fields.retry ? { retry: fields.retry } : {}), data: fields.data ?? "" };
      }
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

describe("serveHttp: resuming a broken stream", () => {
  it("primes a POST stream, and replays the call's result to a client that reconnects with Last-Event-ID", async () => {
    const session = await openSession(serving.url);
    const posted = await fetch(serving.url, { method: "POST", headers: headers(session.sessionId), body: JSON.stringify({ jsonrpc: "2.0", id: 99, method: "tools/call", params: { name: "test_reconnection", arguments: {} } }) });
    expect(posted.headers.get("content-type")).toContain("text/event-stream");
    // Read the priming event only, then drop the stream: the call is still running upstream.
    const { value: priming } = await events(posted.body!).next();
    expect(priming).toMatchObject({ id: expect.any(String), retry: "1000", data: "" });

    // 409 until the server has seen the old stream close (the client would wait `retry` ms anyway).
    const resumed = await vi.waitFor(
      async () => {
        const response = await fetch(serving.url, { method: "GET", headers: { ...headers(session.sessionId), "last-event-id": priming!.id! } });
        if (response.status === 409) {
          await response.body?.cancel();
          throw new Error("the server still holds the old stream");
        }
        return response;
      },
      { timeout: 5_000, interval: 20 },
    );
    expect(resumed.status).toBe(200);
    let answer: unknown;
    for await (const event of events(resumed.body!)) {
      const message = event.data ? (JSON.parse(event.data) as { id?: number }) : {};
      if (message.id === 99) {
        answer = message;
        break;
      }
    }
    expect(answer).toMatchObject({ id: 99, result: { content: [{ type: "text", text: "Reconnection test completed" }] } });
    await session.close();
  });

  it("refuses an event id it does not keep, and sends no priming event when resumability is off", async () => {
    const session = await openSession(serving.url);
    const unknown = await fetch(serving.url, { method: "GET", headers: { ...headers(session.sessionId), "last-event-id": "no-such-event" } });
    expect(unknown.status).toBe(400);
    await unknown.body?.cancel();
    await session.close();

    const plain = await openSession(plainServing.url);
    const posted = await fetch(plainServing.url, { method: "POST", headers: headers(plain.sessionId), body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "test_simple_text", arguments: {} } }) });
    const { value: first } = await events(posted.body!).next();
    expect(first!.id).toBeUndefined();
    expect(JSON.parse(first!.data)).toMatchObject({ id: 7, result: {} });
    await plain.close();
  });
});

it("rejects a resumability limit that is not a whole number above 0", async () => {
  await expect(serveHttp(executor, { resumability: { maxEvents: 0 } })).rejects.toThrow("Expected resumability.maxEvents to be a whole number above 0, got 0");
  await expect(serveHttp(executor, { resumability: { maxBytes: 1.5 } })).rejects.toThrow("Expected resumability.maxBytes to be a whole number above 0, got 1.5");
});

describe("the session event store", () => {
  const message = (n: number) => ({ jsonrpc: "2.0" as const, method: "notifications/message", params: { level: "info", data: `event ${n}` } });

  it("replays the events of the same stream after the given one", async () => {
    const store = createSessionEventStore();
    const first = await store.storeEvent("a", message(1));
    await store.storeEvent("b", message(2));
    const third = await store.storeEvent("a", message(3));
    const sent: Array<[string, unknown]> = [];
    expect(await store.replayEventsAfter(first, { send: async (id, sentMessage) => void sent.push([id, sentMessage]) })).toBe("a");
    expect(sent).toEqual([[third, message(3)]]);
  });

  it("keeps at most maxEvents events and maxBytes of JSON, dropping the oldest", async () => {
    const byCount = createSessionEventStore({ maxEvents: 2 });
    const ids = [];
    for (let n = 0; n < 3; n++) ids.push(await byCount.storeEvent("a", message(n)));
    expect(await byCount.getStreamIdForEventId!(ids[0]!)).toBeUndefined();
    expect(await byCount.getStreamIdForEventId!(ids[1]!)).toBe("a");
    await expect(byCount.replayEventsAfter(ids[0]!, { send: async () => undefined })).rejects.toThrow(`Event ${ids[0]} is no longer kept`);

    const size = JSON.stringify(message(0)).length;
    const byBytes = createSessionEventStore({ maxBytes: size * 2 });
    const kept = [];
    for (let n = 0; n < 3; n++) kept.push(await byBytes.storeEvent("a", message(n)));
    expect(await byBytes.getStreamIdForEventId!(kept[0]!)).toBeUndefined();
    expect(await byBytes.getStreamIdForEventId!(kept[2]!)).toBe("a");
  });
});
