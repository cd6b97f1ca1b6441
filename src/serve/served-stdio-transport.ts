/**
 * The serving end of an MCP stdio connection (2025 era), in place of the SDK's StdioServerTransport,
 * which concatenates its whole read buffer with every chunk and passes every message through a zod
 * union before the server parses it again. Here a chunk is split where its newlines are (a partial
 * line alone is kept), each line is `JSON.parse`d once and checked for the JSON-RPC envelope only
 * (the server checks the method's own params), and a reply is one write. Same contract otherwise:
 * a line that is not JSON-RPC is reported through `onerror` and skipped; a line over the size bound
 * ends the connection; `close()` stops reading and pauses the input when nothing else reads it.
 */
import type { Readable, Writable } from "node:stream";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

/** A line may be this long (the SDK's own bound): longer is not a client talking MCP. */
export const MAX_SERVED_LINE_BYTES = 10 * 1024 * 1024;

const NEWLINE = 0x0a;
const DONE = Promise.resolve();

const isRequestId = (id: unknown) => typeof id === "string" || Number.isInteger(id);

/** Why a parsed line is not a JSON-RPC 2.0 message; undefined when it is one. */
export function jsonRpcProblem(message: unknown): string | undefined {
  if (message === null || typeof message !== "object" || Array.isArray(message)) return "a JSON-RPC message is an object";
  const { jsonrpc, id, method } = message as Record<string, unknown>;
  if (jsonrpc !== "2.0") return 'a JSON-RPC message has "jsonrpc": "2.0"';
  if (typeof method === "string") return id === undefined || isRequestId(id) ? undefined : "a request id is a string or an integer";
  if (!isRequestId(id)) return "a response has a string or integer id";
  return "result" in message || "error" in message ? undefined : "a message has a method, a result or an error";
}

/**
 * @example
 * await server.connect(createServedStdioTransport(process.stdin, process.stdout));
 */
export function createServedStdioTransport(input: Readable, output: Writable): Transport {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  const transport: Transport = {
    async start() {
      input.on("data", onData);
      input.on("error", onError);
    },
    send(message) {
      // Newlines inside strings are escaped by JSON.stringify: one message, one line, one write.
      return output.write(`${JSON.stringify(message)}\n`) ? DONE : new Promise<void>((resolve) => output.once("drain", resolve));
    },
    async close() {
      input.off("data", onData);
      input.off("error", onError);
      if (input.listenerCount("data") === 0) input.pause();
      pending = [];
      pendingBytes = 0;
      transport.onclose?.();
    },
  };
  const onError = (error: Error) => transport.onerror?.(error);

  const deliver = (line: string) => {
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch (error) {
      transport.onerror?.(error as Error);
      return;
    }
    const problem = jsonRpcProblem(message);
    if (problem === undefined) transport.onmessage?.(message as JSONRPCMessage);
    else transport.onerror?.(new Error(`Not a JSON-RPC message (${problem}): ${line.slice(0, 200)}`));
  };

  function onData(chunk: Buffer | string) {
    let data = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    let end = data.indexOf(NEWLINE);
    if (pending.length > 0) {
      // A line spread over chunks is joined once, when its end arrives (not once per chunk).
      pending.push(data);
      pendingBytes += data.length;
      if (end === -1) return void checkPendingSize();
      end += pendingBytes - data.length;
      data = Buffer.concat(pending, pendingBytes);
      pending = [];
      pendingBytes = 0;
    }
    let start = 0;
    for (; end !== -1; end = data.indexOf(NEWLINE, start)) {
      const stop = end > start && data[end - 1] === 0x0d ? end - 1 : end;
      if (stop > start) deliver(data.toString("utf8", start, stop));
      start = end + 1;
    }
    if (start === data.length) return;
    pending.push(data.subarray(start));
    pendingBytes = data.length - start;
    checkPendingSize();
  }

  function checkPendingSize() {
    if (pendingBytes <= MAX_SERVED_LINE_BYTES) return;
    transport.onerror?.(new Error(`A message line is longer than ${MAX_SERVED_LINE_BYTES} bytes; closing the connection`));
    void transport.close();
  }
  return transport;
}
