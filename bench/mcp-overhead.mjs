// Per-call cost of one MCP tool through four clients, side by side in one run:
//   raw SDK            @modelcontextprotocol/sdk `Client.request(tools/call)`, the floor every client builds on,
//   LangChain          @langchain/mcp-adapters `MultiServerMCPClient`, the tool called through its
//                      LangChain tool's `invoke` (as an agent framework would),
//   toolexec           `createExecutor` as a host gets it by default: execution log on (`.toolexec/logs`),
//   toolexec (no log)  the same with `logDir: false`.
// The tool is server-everything's `echo`, over stdio (each client spawns its own server process), legacy
// SSE and Streamable HTTP (one server on 127.0.0.1 shared by the four, each its own session).
// Calls are interleaved round-robin, the starting client rotating every round, so drift and noise from
// other processes on the machine hit the four alike.
// Printed per client: p50, p99 and mean latency, overhead against the raw SDK (p50 and mean in ms, p50
// as a ratio), and host CPU per call (see `measureCpuInBlocks`), then the targets of issue 20: toolexec
// with its log within +0.05 ms of the raw SDK (p50) and below LangChain's overhead.
// Usage: npm run build && node bench/mcp-overhead.mjs [--runs 600] [--warmup 1000] [--only stdio,sse,http] [--setsid]
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { MultiServerMCPClient } from "@langchain/mcp-adapters";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { createExecutor } from "../dist/index.js";
import { flag, format, mean, median, quantile } from "./bench-utils.mjs";
import { EVERYTHING_PATH, startEverything } from "./start-everything.mjs";

const runs = flag("runs", 600);
// Rounds of one call per client before measuring. Fewer leave the JIT still optimizing: after 100
// rounds CPU per call kept halving from one block of 600 calls to the next.
const warmup = flag("warmup", 1000);
const onlyIndex = process.argv.indexOf("--only");
const only = onlyIndex >= 0 ? process.argv[onlyIndex + 1].split(",") : undefined;
const message = "hello";
// toolexec starts a stdio server as the leader of its own session (`detached`, so that stopping it stops
// every process it started). Where the kernel groups scheduling by session (sched_autogroup, on by
// default in many distributions), such a server competes with the machine's other sessions rather
// than sharing the host's share, which costs each call ~0.1–0.2 ms of waiting on a loaded machine.
// `--setsid` starts the raw SDK's and LangChain's servers the same way (util-linux `setsid`), so that
// the table shows the clients' own overhead with the servers scheduled alike.
const sameSession = !process.argv.includes("--setsid");
const serverCommand = sameSession ? { command: process.execPath, args: [EVERYTHING_PATH, "stdio"] } : { command: "setsid", args: [process.execPath, EVERYTHING_PATH, "stdio"] };
const silent = { debug() {}, info() {}, warn: (text) => console.error(text), error: (text) => console.error(text) };
/** The execution log writes its batches at most this long after a call (DEFAULT_LOG_FLUSH_MS), plus a margin. */
const LOG_FLUSH_WAIT_MS = 1200;

const transports = [
  {
    label: "stdio",
    start: async () => ({ stop: async () => {} }),
    sdk: () => new StdioClientTransport({ ...serverCommand, stderr: "ignore" }),
    langchain: () => ({ transport: "stdio", ...serverCommand, stderr: "ignore" }),
    toolexec: () => ({ command: process.execPath, args: [EVERYTHING_PATH, "stdio"] }),
  },
  {
    label: "sse",
    start: () => startEverything("sse"),
    sdk: (server) => new SSEClientTransport(new URL(server.url)),
    langchain: (server) => ({ transport: "sse", url: server.url }),
    toolexec: (server) => ({ type: "sse", url: server.url }),
  },
  {
    label: "http",
    start: () => startEverything("streamableHttp"),
    sdk: (server) => new StreamableHTTPClientTransport(new URL(server.url)),
    langchain: (server) => ({ transport: "http", url: server.url }),
    toolexec: (server) => ({ type: "http", url: server.url }),
  },
];

/** A toolexec client: an executor in a fresh project folder, with its default log or `logDir: false`. */
function toolexecPeer(label, logDir) {
  return {
    label,
    async connect(transport, server) {
      const root = mkdtempSync(path.join(os.tmpdir(), "toolexec-bench-mcp-"));
      writeFileSync(path.join(root, "mcp.json"), JSON.stringify({ mcpServers: { everything: transport.toolexec(server) } }));
      const removeRoot = () => rmSync(root, { recursive: true, force: true });
      let executor;
      try {
        executor = await createExecutor({ root, toolsConfig: false, watch: false, ...(logDir === false ? { logDir } : {}), logger: silent });
        const state = executor.servers()[0]?.state;
        if (state !== "connected") throw new Error(`${label}'s server is ${state}: ${JSON.stringify(executor.servers()[0]?.lastError)}`);
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
  };
}

/** Each peer connects its own client and returns one call of `echo` (throwing on a failed call) and its close. */
const peers = [
  {
    label: "raw SDK",
    async connect(transport, server) {
      const client = new Client({ name: "bench-raw-sdk", version: "1.0.0" });
      await client.connect(transport.sdk(server));
      return {
        call: async () => {
          const result = await client.request({ method: "tools/call", params: { name: "echo", arguments: { message } } }, CallToolResultSchema);
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
  toolexecPeer("toolexec", undefined),
  toolexecPeer("toolexec (no log)", false),
];

/** Work a call leaves behind (timers, setImmediate, stream writes) gets a chance to run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

const cpuMicroseconds = (since) => {
  const used = process.cpuUsage(since);
  return used.user + used.system;
};

/**
 * Host CPU per call, one client at a time: `runs` calls in a row between two `process.cpuUsage()`
 * readings, after settling the event loop and waiting out the log's flush delay on both sides, so
 * work a client defers past its own promise (timers, stream bookkeeping, the log's batched writes)
 * is counted for that client and no other; an idle wait costs no CPU. Only this process is counted
 * (all its threads): servers run in their own processes, and load from other processes on the
 * machine does not enter `process.cpuUsage`, though it still slows this process through shared caches.
 * The interleaved figure printed next to it sums a reading around each interleaved call instead; work
 * deferred past a call lands on whichever client comes next, which the rotating order spreads evenly.
 * Stdio calls cost 1.4–4× as much CPU interleaved as in a block, likely because back to back the same
 * server is still awake and the host wakes up less often and with warmer caches. Compare clients
 * within a column, not across them.
 */
async function measureCpuInBlocks(connected) {
  const perCall = new Map();
  for (const peer of connected) {
    await sleep(LOG_FLUSH_WAIT_MS);
    const before = process.cpuUsage();
    for (let index = 0; index < runs; index++) await peer.call();
    await settle();
    await sleep(LOG_FLUSH_WAIT_MS);
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
  const logged = overhead("toolexec");
  const logCpu = cpuBlocks.get("toolexec") - cpuBlocks.get("toolexec (no log)");
  console.log(
    `targets: toolexec (log) overhead p50 ${logged.toFixed(3)} ms → ${logged <= 0.05 ? "within" : "over"} +0.05 ms of raw SDK; ` +
      `${logged < overhead("LangChain") ? "below" : "not below"} LangChain's ${overhead("LangChain").toFixed(3)} ms. ` +
      `The log itself: ${(median(times.get("toolexec")) - median(times.get("toolexec (no log)"))).toFixed(3)} ms p50, ${(logCpu * 1000).toFixed(1)} µs CPU per call (block)`,
  );
}

console.log(`node ${process.version}, ${os.cpus().length} cores, load average ${os.loadavg().map((load) => load.toFixed(2)).join(" ")} (1, 5, 15 min)`);
console.log(sameSession ? "stdio: the raw SDK's and LangChain's servers run in this process's session; toolexec's lead their own (see --setsid)" : "stdio: every server leads its own session (--setsid)");
for (const transport of transports) if (!only || only.includes(transport.label)) await measure(transport);
