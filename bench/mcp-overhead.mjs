// Per-call overhead of executor.callTool on an MCP tool, against the raw SDK Client calling the same
// tool of the same server (its own connection), per transport, interleaved in one run.
// server-everything is the server: a stdio process per client, or one SSE / Streamable HTTP server
// on 127.0.0.1. Targets (issue 3): ≤ 1.05× on HTTP and SSE, ≤ +0.1 ms on stdio.
// Wall-clock medians suffer from other processes' load; host CPU per call (this process only:
// the servers are other processes) does not, so both are printed.
// Usage: npm run build && node bench/mcp-overhead.mjs [--runs 400] [--warmup 50] [--only stdio,sse,http]
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { createExecutor } from "../dist/index.js";
import { flag, format, median, quantile } from "./bench-utils.mjs";
import { EVERYTHING_PATH, startEverything } from "./start-everything.mjs";

const runs = flag("runs", 400);
const warmup = flag("warmup", 50);
const onlyIndex = process.argv.indexOf("--only");
const only = onlyIndex >= 0 ? process.argv[onlyIndex + 1].split(",") : undefined;
const args = { message: "hello" };
const silent = { debug() {}, info() {}, warn() {}, error: (message) => console.error(message) };

const transports = [
  {
    label: "stdio",
    start: async () => ({ stop: async () => {} }),
    entry: () => ({ command: process.execPath, args: [EVERYTHING_PATH, "stdio"] }),
    raw: () => new StdioClientTransport({ command: process.execPath, args: [EVERYTHING_PATH, "stdio"], stderr: "ignore" }),
  },
  {
    label: "sse",
    start: () => startEverything("sse"),
    entry: (server) => ({ type: "sse", url: server.url }),
    raw: (server) => new SSEClientTransport(new URL(server.url)),
  },
  {
    label: "http",
    start: () => startEverything("streamableHttp"),
    entry: (server) => ({ type: "http", url: server.url }),
    raw: (server) => new StreamableHTTPClientTransport(new URL(server.url)),
  },
];

async function measure(transport) {
  const server = await transport.start();
  const root = mkdtempSync(path.join(os.tmpdir(), "toolexec-bench-mcp-"));
  writeFileSync(path.join(root, "mcp.json"), JSON.stringify({ mcpServers: { everything: transport.entry(server) } }));
  const client = new Client({ name: "bench-raw-sdk", version: "1.0.0" });
  let executor;
  try {
    await client.connect(transport.raw(server));
    executor = await createExecutor({ root, toolsConfig: false, watch: false, logDir: false, logger: silent });
    const state = executor.servers()[0]?.state;
    if (state !== "connected") throw new Error(`executor's server is ${state}: ${JSON.stringify(executor.servers()[0]?.lastError)}`);
    const sides = {
      raw: async () => {
        const result = await client.request({ method: "tools/call", params: { name: "echo", arguments: args } }, CallToolResultSchema);
        if (result.isError) throw new Error(JSON.stringify(result));
      },
      executor: async () => {
        const result = await executor.callTool("everything__echo", args);
        if (!result.ok) throw new Error(JSON.stringify(result.error));
      },
    };
    for (let index = 0; index < warmup; index++) {
      await sides.raw();
      await sides.executor();
    }
    const times = { raw: [], executor: [] };
    // Host CPU per call is immune to other processes' load: it is what each client itself costs.
    const cpu = { raw: 0, executor: 0 };
    for (let index = 0; index < runs; index++) {
      // Alternate which goes first so drift on a noisy machine hits both sides alike.
      for (const side of index % 2 === 0 ? ["raw", "executor"] : ["executor", "raw"]) {
        const started = performance.now();
        const cpuBefore = process.cpuUsage();
        await sides[side]();
        const used = process.cpuUsage(cpuBefore);
        cpu[side] += used.user + used.system;
        times[side].push(performance.now() - started);
      }
    }
    const base = median(times.raw);
    const mine = median(times.executor);
    const cpuMs = (side) => cpu[side] / runs / 1000;
    console.log(
      `${transport.label.padEnd(5)} raw SDK p50 ${format(base)} p99 ${format(quantile(times.raw, 0.99))} | callTool p50 ${format(mine)} p99 ${format(quantile(times.executor, 0.99))} | ratio ${(mine / base).toFixed(3)} | overhead ${(mine - base).toFixed(3)} ms` +
        ` | host CPU per call: raw ${cpuMs("raw").toFixed(3)} ms, callTool ${cpuMs("executor").toFixed(3)} ms, ratio ${(cpuMs("executor") / cpuMs("raw")).toFixed(3)}, overhead ${(cpuMs("executor") - cpuMs("raw")).toFixed(3)} ms  (${runs} runs each, interleaved)`,
    );
  } finally {
    await client.close().catch(() => undefined);
    await executor?.close();
    await server.stop();
    rmSync(root, { recursive: true, force: true });
  }
}

for (const transport of transports) if (!only || only.includes(transport.label)) await measure(transport);
