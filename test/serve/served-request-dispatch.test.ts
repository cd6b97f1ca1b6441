/**
 * A served stdio session whose requests skip the SDK's message sorting and whose plain `tools/call`
 * reaches our handler straight (served-request-dispatch.ts): what a client sees is what the SDK's
 * own path answers — results, progress, a JSON-RPC error for params or a result the SDK's schemas
 * refuse — raw lines in, raw lines out.
 */
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createExecutor, type Executor, type ExecutorPlugin } from "../../src/index.js";
import { createMcpServer, serveStdio, type StdioServing } from "../../src/serve.js";
import { dispatchRequestsDirectly } from "../../src/serve/served-request-dispatch.js";
import { createServedStdioTransport } from "../../src/serve/served-stdio-transport.js";
import { silentLogger } from "./serve-test-helpers.js";

const tools: ExecutorPlugin = {
  name: "local",
  start: async () => ({
    listTools: () => [
      { name: "greet", description: "Greet someone.", inputSchema: { type: "object", properties: { name: { type: "string" } } } },
      { name: "bad_image", description: "Answers an image block whose data is not base64 text.", inputSchema: { type: "object" } },
    ],
    callTool: async (call, options) => {
      if (call.name === "bad_image") return { ok: true, value: "x", content: [{ type: "image", data: 5, mimeType: "image/png" }] };
      options.onProgress?.({ progress: 1, total: 1 });
      return { ok: true, value: `hi ${String(call.arguments.name)}` };
    },
    close: async () => {},
  }),
};

let executor: Executor;
let serving: StdioServing;
const input = new PassThrough();
const output = new PassThrough();
const lines: Array<Record<string, unknown>> = [];
let buffered = "";

beforeAll(async () => {
  executor = await createExecutor({ toolsConfig: false, mcpConfig: false, watch: false, logDir: false, logger: silentLogger, plugins: [tools] });
  output.on("data", (chunk: Buffer) => {
    buffered += chunk.toString("utf8");
    for (let end = buffered.indexOf("\n"); end !== -1; end = buffered.indexOf("\n")) {
      lines.push(JSON.parse(buffered.slice(0, end)) as Record<string, unknown>);
      buffered = buffered.slice(end + 1);
    }
  });
  serving = await serveStdio(executor, { stdin: input, stdout: output });
  await exchange({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } } });
  input.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
});
afterAll(async () => {
  await serving?.close();
  await executor?.close();
});

/** Sends one request line; resolves with every line written until its answer (notifications first). */
async function exchange(request: Record<string, unknown>): Promise<Array<Record<string, unknown>>> {
  const from = lines.length;
  input.write(`${JSON.stringify(request)}\n`);
  for (let waited = 0; !lines.slice(from).some((line) => line.id === request.id); waited++) {
    if (waited > 2_000) throw new Error(`No answer to ${JSON.stringify(request)}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return lines.slice(from);
}

const answer = async (request: Record<string, unknown>) => (await exchange(request)).find((line) => line.id === request.id);

it("holds for the SDK in use: the fast path is taken (a later SDK without its internals would fall back silently)", () => {
  const served = createMcpServer(executor);
  const transport = createServedStdioTransport(new PassThrough(), new PassThrough());
  void served.server.connect(transport);
  expect(dispatchRequestsDirectly(served, transport)).toBe(true);
  void served.close();
});

it("answers a plain tools/call, with progress when the request carries a token", async () => {
  expect(await answer({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "greet", arguments: { name: "Ada" } } })).toEqual({ jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "hi Ada" }] } });
  const seen = await exchange({ jsonrpc: "2.0", id: "two", method: "tools/call", params: { name: "greet", arguments: { name: "Bo" }, _meta: { progressToken: "p" } } });
  expect(seen).toEqual([
    { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "p", progress: 1, total: 1 } },
    { jsonrpc: "2.0", id: "two", result: { content: [{ type: "text", text: "hi Bo" }] } },
  ]);
});

it("leaves params the schema would change or refuse to the SDK: an unknown key is dropped, arguments that are not an object are an error", async () => {
  expect(await answer({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "greet", arguments: { name: "Cy" }, extra: true } })).toEqual({ jsonrpc: "2.0", id: 3, result: { content: [{ type: "text", text: "hi Cy" }] } });
  expect(await answer({ jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "greet", arguments: ["Di"] } })).toMatchObject({ jsonrpc: "2.0", id: 4, error: { code: -32603 } });
});

it("refuses a result the SDK's result schema refuses, with the SDK's error", async () => {
  const refused = await answer({ jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "bad_image", arguments: {} } });
  expect(refused).toMatchObject({ id: 5, error: { code: -32602, message: expect.stringMatching(/^MCP error -32602: Invalid tools\/call result: /) } });
});

it("sorts what is not a plain request the SDK's way: a request with a task, a ping, an unknown method", async () => {
  expect(await answer({ jsonrpc: "2.0", id: 6, method: "ping" })).toEqual({ jsonrpc: "2.0", id: 6, result: {} });
  expect(await answer({ jsonrpc: "2.0", id: 7, method: "no/such" })).toEqual({ jsonrpc: "2.0", id: 7, error: { code: -32601, message: "Method not found" } });
  expect(await answer({ jsonrpc: "2.0", id: 8, method: "tools/call", params: { name: "greet", arguments: { name: "Ed" }, task: { ttl: 1_000 } } })).toMatchInlineSnapshot(`
    {
      "error": {
        "code": -32603,
        "message": "Server does not support task creation (required for tools/call)",
      },
      "id": 8,
      "jsonrpc": "2.0",
    }
  `);
});
