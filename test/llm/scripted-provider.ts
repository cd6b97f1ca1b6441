/**
 * A stand-in for a model provider's HTTP API on 127.0.0.1: it answers each request with the next
 * scripted response (written in the provider's documented format) and keeps every request body, so a
 * test can drive the official SDK through a whole tool loop and see exactly what the SDK sent. A
 * response made with `serverSentEvents` is streamed as `text/event-stream`, as the providers stream.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach } from "vitest";

export interface ScriptedProvider {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** Each request's method, path and parsed JSON body, in order. */
  requests: Array<{ method: string; path: string; body: any }>;
}

const servers = new Set<Server>();
afterEach(async () => {
  await Promise.all([...servers].map((server) => new Promise((resolve) => server.close(resolve))));
  servers.clear();
});

const EVENTS = Symbol("server-sent events");

/** One server-sent event: an optional `event:` name and its `data:` (JSON, or a string such as `[DONE]`). */
export interface ServerSentEvent {
  event?: string;
  data: object | string;
}

/** A scripted response sent as a stream of server-sent events. */
export function serverSentEvents(events: ServerSentEvent[]): object {
  return { [EVENTS]: events };
}

const eventText = ({ event, data }: ServerSentEvent) => `${event === undefined ? "" : `event: ${event}\n`}data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;

export async function startScriptedProvider(responses: object[]): Promise<ScriptedProvider> {
  const requests: ScriptedProvider["requests"] = [];
  const queue = [...responses];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      requests.push({ method: request.method ?? "", path: request.url ?? "", body: text === "" ? undefined : JSON.parse(text) });
      const next = queue.shift() as (object & { [EVENTS]?: ServerSentEvent[] }) | undefined;
      const events = next?.[EVENTS];
      if (events !== undefined) {
        response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
        response.end(events.map(eventText).join(""));
        return;
      }
      response.writeHead(next === undefined ? 500 : 200, { "content-type": "application/json" });
      response.end(JSON.stringify(next ?? { error: { message: "no scripted response left" } }));
    });
  });
  servers.add(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
}
