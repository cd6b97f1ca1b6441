// Per-call cost of calling one MCP tool through three clients, side by side in one run:
//   raw SDK    @modelcontextprotocol/sdk `Client.callTool` (the floor every client builds on),
//   LangChain  @langchain/mcp-adapters `MultiServerMCPClient`, the tool called through its
//              LangChain tool's `invoke` (as an agent framework would),
//   toolexec   `createExecutor` + `executor.callTool("everything__echo", …)`.
// The tool is server-everything's `echo`, over stdio (each client spawns its own server process) and
// over Streamable HTTP (one server-everything on 127.0.0.1 shared by the three, each its own session).
// Calls are interleaved round-robin, the starting client rotating every iteration, so drift and
// noise from other processes on the machine hit the three alike.
// Printed per client: p50, p99 and mean latency, overhead against the raw SDK (p50 and mean, in ms,
// and p50 as a ratio), and host CPU per call (see `measureCpuInBlocks` for the method).
// Target: toolexec's overhead at or below the lightest peer's (today the only peer is LangChain).
// Usage: npm run build && node bench/mcp-peers.mjs [--runs 600] [--warmup 1500]
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { MultiServerMCPClient } from "@langchain/mcp-adapters";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createExecutor } from "../dist/index.js";
import { flag, format, mean, median, quantile } from "./bench-utils.mjs";
import { EVERYTHING_PATH, startEverything } from "./start-everything.mjs";

const runs = flag("runs", 600);
// Rounds of one call per client before measuring. Fewer leave the JIT still optimizing: after 100
// rounds CPU per call kept halving from one block of 600 calls to the next.
const warmup = flag("warmup", 1500);
const message = "hello";
const silent = { debug() {}, info() {}, warn() {}, error: (text) => console.error(text) };

const transports = [
  {
    label: "stdio",
    start: async () => ({ stop: async () => {} }),
    sdk: () => new StdioClientTransport({ command: process.execPath, args: [EVERYTHING_PATH, "stdio"], stderr: "ignore" }),
    langchain: () => ({ transport: "stdio", command: process.execPath, args: [EVERYTHING_PATH, "stdio"], stderr: "ignore" }),
    toolexec: () => ({ command: process.execPath, args: [EVERYTHING_PATH, "stdio"] }),
  },
  {
    label: "http",
    start: () => startEverything("streamableHttp"),
    sdk: (server) => new StreamableHTTPClientTransport(new URL(server.url)),
    langchain: (server) => ({ transport: "http", url: server.url }),
    toolexec: (server) => ({ type: "http", url: server.url }),
  },
];

/** Each peer connects its own client and returns one call of `echo` (throwing on a failed call) and its close. */
const peers = [
  {
    label: "raw SDK",
    async connect(transport, server) {
      const client = new Client({ name: "bench-raw-sdk", version: "1.0.0" });
      await client.connect(transport.sdk(server));
      return {
        call: async () => {
          const result = await client.callTool({ name: "echo", arguments: { message } });
          if (result.isError) throw new Error(JSON.stringify(result));
        },
        close: () => client.close(),
      };
    },
  },
  {
    label: "LangChain",
    async connect(transport, server) {
      const client = new MultiServerMCPClient({ mcpServers: { everything: transport.langchain(server) }, onConnectionError: "throw" });
      try {
        const echo = (await client.getTools()).find((tool) => tool.name === "echo");
        if (!echo) throw new Error("LangChain adapter found no echo tool");
        return {
          // A fresh arguments object each call: the adapter merges hook results into the one it is given.
          // Tool faults come back as a thrown ToolException.
          call: () => echo.invoke({ message }),
          close: () => client.close(),
        };
      } catch (error) {
        await client.close();
        throw error;
      }
    },
  },
  {
    label: "toolexec",
    async connect(transport, server) {
      const root = mkdtempSync(path.join(os.tmpdir(), "toolexec-bench-peers-"));
      writeFileSync(path.join(root, "mcp.json"), JSON.stringify({ mcpServers: { everything: transport.toolexec(server) } }));
      const removeRoot = () => rmSync(root, { recursive: true, force: true });
      let executor;
      try {
        executor = await createExecutor({ root, toolsConfig: false, watch: false, logDir: false, logger: silent });
        const state = executor.servers()[0]?.state;
        if (state !== "connected") throw new Error(`toolexec's server is ${state}: ${JSON.stringify(executor.servers()[0]?.lastError)}`);
      } catch (error) {
        await executor?.close();
        removeRoot();
        throw error;
      }
      return {
        call: async () => {
          const result = await executor.callTool("everything__echo", { message });
          if (!result.ok) throw new Error(JSON.stringify(result.error));
        },
        close: async () => {
          await executor.close();
          removeRoot();
        },
      };
    },
  },
];

/** Work a call leaves behind (timers, setImmediate, stream writes) gets a chance to run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

const cpuMicroseconds = (since) => {
  const used = process.cpuUsage(since);
  return used.user + used.system;
};

/**
 * Host CPU per call, one client at a time: `runs` calls in a row between two `process.cpuUsage()`
 * readings, after settling the event loop on both sides, so work a client defers past its own
 * promise (timers, stream bookkeeping) is counted for that client and no other. Only this process is
 * counted (all its threads): servers run in their own processes, and load from other processes on the
 * machine does not enter `process.cpuUsage`, though it still slows this process through shared caches.
 * The interleaved figure printed next to it sums a reading around each interleaved call instead; work
 * deferred past a call lands on whichever client comes next, which the rotating order spreads evenly.
 * Those windows added up to within 2% of the whole loop's CPU, yet stdio calls cost 1.4–4× as much
 * CPU interleaved as in a block, likely because back to back the same server is still awake and the
 * host wakes up less often and with warmer caches. Compare clients within a column, not across them.
 */
async function measureCpuInBlocks(connected) {
  const perCall = new Map();
  for (const peer of connected) {
    await settle();
    const before = process.cpuUsage();
    for (let index = 0; index < runs; index++) await peer.call();
    await settle();
    perCall.set(peer.label, cpuMicroseconds(before) / runs / 1000);
  }
  return perCall;
}

async function measure(transport) {
  const server = await transport.start();
  const connected = [];
  try {
    for (const peer of peers) connected.push({ label: peer.label, ...(await peer.connect(transport, server)) });
    const order = (index) => connected.map((_, offset) => connected[(index + offset) % connected.length]);
    for (let index = 0; index < warmup; index++) for (const peer of order(index)) await peer.call();

    const times = new Map(connected.map((peer) => [peer.label, []]));
    const cpuInterleaved = new Map(connected.map((peer) => [peer.label, 0]));
    for (let index = 0; index < runs; index++) {
      for (const peer of order(index)) {
        const cpuBefore = process.cpuUsage();
        const started = performance.now();
        await peer.call();
        times.get(peer.label).push(performance.now() - started);
        cpuInterleaved.set(peer.label, cpuInterleaved.get(peer.label) + cpuMicroseconds(cpuBefore));
      }
    }
    const cpuBlocks = await measureCpuInBlocks(connected);
    report(transport.label, times, cpuInterleaved, cpuBlocks);
  } finally {
    for (const peer of connected) await peer.close().catch((error) => console.error(`closing ${peer.label}: ${error.message}`));
    await server.stop();
  }
}

function report(label, times, cpuInterleaved, cpuBlocks) {
  const baseP50 = median(times.get("raw SDK"));
  const baseMean = mean(times.get("raw SDK"));
  const rows = [["client", "p50", "p99", "mean", "overhead p50", "overhead mean", "ratio p50", "CPU/call block", "CPU/call interleaved"]];
  for (const [client, values] of times) {
    const p50 = median(values);
    const average = mean(values);
    const isBase = client === "raw SDK";
    rows.push([
      client,
      format(p50),
      format(quantile(values, 0.99)),
      format(average),
      isBase ? "-" : `${(p50 - baseP50).toFixed(3)} ms`,
      isBase ? "-" : `${(average - baseMean).toFixed(3)} ms`,
      (p50 / baseP50).toFixed(3),
      `${cpuBlocks.get(client).toFixed(3)} ms`,
      `${(cpuInterleaved.get(client) / runs / 1000).toFixed(3)} ms`,
    ]);
  }
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  console.log(`\n${label}: server-everything echo, ${runs} calls per client interleaved round-robin after ${warmup} warm-up rounds; block CPU over ${runs} more calls each`);
  for (const row of rows) console.log(row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join("  "));
  const overhead = (client) => median(times.get(client)) - baseP50;
  const lightest = [...times.keys()].filter((client) => client !== "raw SDK" && client !== "toolexec").sort((a, b) => overhead(a) - overhead(b))[0];
  const verdict = overhead("toolexec") <= overhead(lightest) ? "meets" : "misses";
  console.log(`target: toolexec overhead p50 ${overhead("toolexec").toFixed(3)} ms vs lightest peer (${lightest}) ${overhead(lightest).toFixed(3)} ms → ${verdict} the target`);
}

console.log(`node ${process.version}, ${os.cpus().length} cores, load average ${os.loadavg().map((load) => load.toFixed(2)).join(" ")} (1, 5, 15 min)`);
for (const transport of transports) await measure(transport);
