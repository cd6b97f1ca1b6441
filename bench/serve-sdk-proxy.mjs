// A second baseline for bench/serve-overhead.mjs: the thinnest MCP proxy the SDK allows, built with
// the SDK alone — a server whose tools/list and tools/call are an SDK Client's requests to the
// upstream server. It has the same two protocol legs as `toolexec serve`, and nothing of toolexec:
// over HTTP (Streamable HTTP both ways, sessions) or over stdio (stdio both ways). Tool names pass
// through, except that the `everything__` prefix toolexec gives server-everything's tools is taken off,
// so a client calls the same name through either proxy.
// Usage: node bench/serve-sdk-proxy.mjs <upstream url>            — prints its URL, ends when its stdin closes
//        node bench/serve-sdk-proxy.mjs --stdio <command> [args…]  — an MCP server on its own stdio
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, CallToolResultSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const overStdio = process.argv[2] === "--stdio";
const upstream = new Client({ name: "sdk-proxy", version: "1.0.0" });
await upstream.connect(
  overStdio ? new StdioClientTransport({ command: process.argv[3], args: process.argv.slice(4), stderr: "ignore" }) : new StreamableHTTPClientTransport(new URL(process.argv[2])),
);

function proxyServer() {
  const server = new Server({ name: "sdk-proxy", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => upstream.listTools());
  server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
    upstream.request({ method: "tools/call", params: { ...request.params, name: request.params.name.replace(/^everything__/, "") } }, CallToolResultSchema, { signal: extra.signal }),
  );
  return server;
}

if (overStdio) {
  const transport = new StdioServerTransport();
  await proxyServer().connect(transport);
  await new Promise((resolve) => process.stdin.once("end", resolve));
} else {
  const sessions = new Map();
  const openSession = async () => {
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (id) => sessions.set(id, transport) });
    await proxyServer().connect(transport);
    return transport;
  };
  const http = createServer(async (request, response) => {
    const chunks = [];
    for await (const chunk of request) chunks.push(chunk);
    const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString("utf8")) : undefined;
    const id = request.headers["mcp-session-id"];
    const transport = typeof id === "string" ? sessions.get(id) : await openSession();
    if (!transport) return void response.writeHead(404).end();
    await transport.handleRequest(request, response, body);
  });
  await new Promise((resolve) => http.listen(0, "127.0.0.1", resolve));
  process.stdout.write(`http://127.0.0.1:${http.address().port}/mcp\n`);
  process.stdin.resume();
  await new Promise((resolve) => process.stdin.once("end", resolve));
}
await upstream.close();
process.exit(0);
