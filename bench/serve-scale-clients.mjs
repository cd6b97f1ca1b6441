// One worker thread of bench/serve-scale.mjs's load: its share of the MCP clients (SDK v1 and v2 by
// turns), each calling the slow tool in a loop for the window it is told. The clients are spread over
// threads so that the load generator is not one thread competing for one share of a busy machine.
// Messages in: { connect: { url, count, first } }, { run: { seconds, delayMs } }, { close: true };
// out: { connected: true }, { ran: { calls, errors, elapsedMs } }, { closed: true }.
import { parentPort } from "node:worker_threads";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";

let clients = [];

async function connect({ url, count, first }) {
  clients = await Promise.all(
    Array.from({ length: count }, async (_, index) => {
      const v2 = (first + index) % 2 === 1;
      const client = v2 ? new ClientV2({ name: "bench-v2", version: "1.0.0" }) : new ClientV1({ name: "bench-v1", version: "1.0.0" });
      await client.connect(v2 ? new TransportV2(new URL(url)) : new TransportV1(new URL(url)));
      return client;
    }),
  );
}

async function run({ seconds, delayMs }) {
  const started = Date.now();
  const stopAt = started + seconds * 1000;
  let calls = 0;
  const errors = [];
  await Promise.all(
    clients.map(async (client) => {
      while (Date.now() < stopAt) {
        try {
          const result = await client.callTool({ name: "fixture__read_slow", arguments: { delayMs } }, undefined, { timeout: 120_000 });
          if (result.isError) errors.push(JSON.stringify(result.content).slice(0, 200));
          else calls++;
        } catch (error) {
          errors.push(error.message);
        }
      }
    }),
  );
  return { calls, errors, elapsedMs: Date.now() - started };
}

parentPort.on("message", async (message) => {
  if (message.connect) {
    await connect(message.connect);
    parentPort.postMessage({ connected: true });
  } else if (message.run) {
    parentPort.postMessage({ ran: await run(message.run) });
  } else if (message.close) {
    await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
    parentPort.postMessage({ closed: true });
  }
});
