/** The serving end of stdio: lines split anywhere, several per chunk, CRLF, bad lines reported and skipped, an endless line ends it. */
import { PassThrough } from "node:stream";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { expect, it } from "vitest";
import { createServedStdioTransport, MAX_SERVED_LINE_BYTES } from "../../src/serve/served-stdio-transport.js";

async function started() {
  const input = new PassThrough();
  const output = new PassThrough();
  const transport = createServedStdioTransport(input, output);
  const messages: JSONRPCMessage[] = [];
  const errors: string[] = [];
  let closed = 0;
  transport.onmessage = (message) => void messages.push(message);
  transport.onerror = (error) => void errors.push(error.message);
  transport.onclose = () => void closed++;
  await transport.start();
  /** Every write lands before the next macrotask: the stream delivers chunks as they come. */
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  return { input, output, transport, messages, errors, closed: () => closed, settle };
}

it("joins a line written in pieces (a UTF-8 character cut in two included) and splits a chunk holding several lines, CRLF or LF", async () => {
  const { input, messages, settle } = await started();
  const line = Buffer.from(`${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", arguments: { text: "naïve ✓" } } })}\n`);
  const cut = line.indexOf(Buffer.from("✓")) + 1;
  input.write(line.subarray(0, 10));
  input.write(line.subarray(10, cut));
  await settle();
  expect(messages).toEqual([]);
  input.write(line.subarray(cut));
  input.write('{"jsonrpc":"2.0","id":2,"result":{}}\r\n{"jsonrpc":"2.0","method":"notifications/initialized"}\n{"jsonrpc":"2.0","id":"3","method":"ping"}');
  await settle();
  expect(messages).toEqual([
    { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", arguments: { text: "naïve ✓" } } },
    { jsonrpc: "2.0", id: 2, result: {} },
    { jsonrpc: "2.0", method: "notifications/initialized" },
  ]);
  input.write("\n");
  await settle();
  expect(messages.at(-1)).toEqual({ jsonrpc: "2.0", id: "3", method: "ping" });
});

it("reports a line that is not JSON or not JSON-RPC, skips it, and goes on with the next", async () => {
  const { input, messages, errors, closed, settle } = await started();
  input.write('not json\n{"id":1,"method":"ping"}\n{"jsonrpc":"2.0","id":1.5,"method":"ping"}\n[1]\n{"jsonrpc":"2.0","id":4}\n{"jsonrpc":"2.0","id":5,"method":"ping"}\n');
  await settle();
  expect(errors).toHaveLength(5);
  expect(errors.slice(1)).toEqual([
    'Not a JSON-RPC message (a JSON-RPC message has "jsonrpc": "2.0"): {"id":1,"method":"ping"}',
    'Not a JSON-RPC message (a request id is a string or an integer): {"jsonrpc":"2.0","id":1.5,"method":"ping"}',
    "Not a JSON-RPC message (a JSON-RPC message is an object): [1]",
    'Not a JSON-RPC message (a message has a method, a result or an error): {"jsonrpc":"2.0","id":4}',
  ]);
  expect(messages).toEqual([{ jsonrpc: "2.0", id: 5, method: "ping" }]);
  expect(closed()).toBe(0);
});

it("ends the connection when a line grows past the bound without a newline, and stops reading", async () => {
  const { input, errors, closed, settle } = await started();
  const piece = Buffer.alloc(1024 * 1024, 0x61);
  for (let written = 0; written <= MAX_SERVED_LINE_BYTES; written += piece.length) input.write(piece);
  await settle();
  expect(errors).toEqual([`A message line is longer than ${MAX_SERVED_LINE_BYTES} bytes; closing the connection`]);
  expect(closed()).toBe(1);
  expect(input.listenerCount("data")).toBe(0);
});

it("writes each message as one line and resolves at once while the output takes it", async () => {
  const { output, transport } = await started();
  const written: string[] = [];
  output.on("data", (chunk: Buffer) => written.push(chunk.toString("utf8")));
  await transport.send({ jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "two\nlines" }] } });
  await transport.send({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
  expect(written).toEqual(['{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"two\\nlines"}]}}\n', '{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}\n']);
});
