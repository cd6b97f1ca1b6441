// The cost of the proxy hop: an SDK Client calling server-everything's `echo` through `toolexec serve`
// (a separate serving process, as clients start it) versus calling server-everything directly,
// interleaved in one run, over stdio and over Streamable HTTP. Then 1,000 calls from 10 clients through
// the HTTP server: p50/p99 and host CPU per call of the serving process.
// Targets (issue 21): ≤ +0.3 ms per call over stdio; ≤ 1.15× a direct call over HTTP with a stdio upstream; HTTP→HTTP ≤ 1.05× the SDK-only proxy.
// A third HTTP line compares with bench/serve-sdk-proxy.mjs, the same two legs built with the SDK
// alone, so the part of the ratio that is the SDK's own is measured, not guessed. A fourth compares a
// 2026-07-28 client (SDK v2) with a 2025 session through the same serving process.
// Usage: npm run build && node bench/serve-overhead.mjs [--runs 600] [--warmup 300] [--cpu-prof]
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttpTransport } from "@modelcontextprotocol/client";
import { flag, format, median, quantile } from "./bench-utils.mjs";
import { EVERYTHING_PATH, startEverything } from "./start-everything.mjs";

const runs = flag("runs", 600);
// `--cpu-prof` profiles the serving processes (profiles land in the current folder).
const nodeFlags = process.argv.includes("--cpu-prof") ? ["--cpu-prof"] : [];
const warmup = flag("warmup", 300);
const here = path.dirname(fileURLToPath(import.meta.url));
const host = path.join(here, "serve-host.mjs");
const args = { message: "hello" };

/** CPU seconds (user + system) a process has used so far, from /proc. */
function cpuOf(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function connect(transport) {
  const client = new Client({ name: "bench", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

/** Calls `echo` on each client in turn, `runs` times, after `warmup` rounds; per-client latencies. */
async function interleave(clients) {
  const times = clients.map(() => []);
  for (let round = 0; round < warmup + runs; round++) {
    for (let index = 0; index < clients.length; index++) {
      const started = performance.now();
      await clients[index].callTool({ name: "echo", arguments: args });
      if (round >= warmup) times[index].push(performance.now() - started);
    }
  }
  return times;
}

function project(entry) {
  const root = mkdtempSync(path.join(os.tmpdir(), "toolexec-bench-serve-"));
  // Served without the server__ prefix would need transparent proxying; here the tool is everything__echo.
  writeFileSync(path.join(root, "mcp.json"), JSON.stringify({ mcpServers: { everything: entry } }));
  return root;
}

async function stdio() {
  const root = project({ command: process.execPath, args: [EVERYTHING_PATH, "stdio"] });
  const direct = await connect(new StdioClientTransport({ command: process.execPath, args: [EVERYTHING_PATH, "stdio"], stderr: "ignore" }));
  const servedTransport = new StdioClientTransport({ command: process.execPath, args: [host, root, "stdio"], stderr: "inherit" });
  const served = await connect(servedTransport);
  // The served tool is everything__echo: call it through a thin wrapper with the same interface.
  const proxied = { callTool: (request) => served.callTool({ ...request, name: "everything__echo" }) };
  const [directTimes, servedTimes] = await interleave([direct, proxied]);
  await direct.close();
  await served.close();
  rmSync(root, { recursive: true, force: true });
  const overhead = median(servedTimes) - median(directTimes);
  console.log(`stdio  direct p50 ${format(median(directTimes))} p99 ${format(quantile(directTimes, 0.99))} | through toolexec serve p50 ${format(median(servedTimes))} p99 ${format(quantile(servedTimes, 0.99))} | overhead ${(overhead * 1000).toFixed(0)} µs (target ≤ 300 µs)`);
}

/** A serving process that prints its URL: `node <script> ...args` (serve-host.mjs, serve-sdk-proxy.mjs). */
async function startServedHttp(...args) {
  const child = spawn(process.execPath, [...nodeFlags, ...args], { stdio: ["pipe", "pipe", "inherit"] });
  const url = await new Promise((resolve, reject) => {
    let output = "";
    child.stdout.on("data", (chunk) => {
      output += chunk;
      if (output.includes("\n")) resolve(output.trim());
    });
    child.once("exit", (code) => reject(new Error(`serve-host exited (${code})`)));
  });
  return { url, pid: child.pid, stop: () => new Promise((resolve) => (child.once("exit", resolve), child.stdin.end())) };
}

/** The same serving process, a 2026-07-28 client (SDK v2, no session, a fresh server per request) against a 2025 session. */
async function modernEra(url, legacy) {
  const modern = new ModernClient({ name: "bench", version: "1.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
  await modern.connect(new ModernHttpTransport(new URL(url)));
  const call = (client) => ({ callTool: (request) => client.callTool({ ...request, name: "everything__echo" }) });
  const [legacyTimes, modernTimes] = await interleave([call(legacy), call(modern)]);
  console.log(`http   through toolexec serve (upstream over stdio): 2025-11-25 session p50 ${format(median(legacyTimes))} | 2026-07-28 p50 ${format(median(modernTimes))} | ratio ${(median(modernTimes) / median(legacyTimes)).toFixed(3)}`);
  await modern.close();
}

/**
 * Over HTTP, two set-ups: the served executor reaches server-everything over HTTP too (two HTTP legs
 * against one), and over stdio (the HTTP leg to the client, a stdio leg upstream).
 */
async function http() {
  const everything = await startEverything("streamableHttp");
  const direct = await connect(new StreamableHTTPClientTransport(new URL(everything.url)));
  let served;
  for (const upstream of ["http", "stdio"]) {
    const root = project(upstream === "http" ? { type: "http", url: everything.url } : { command: process.execPath, args: [EVERYTHING_PATH, "stdio"] });
    served?.stop();
    served = await startServedHttp(host, root, "http");
    const throughServe = await connect(new StreamableHTTPClientTransport(new URL(served.url)));
    const proxied = { callTool: (request) => throughServe.callTool({ ...request, name: "everything__echo" }) };
    const [directTimes, servedTimes] = await interleave([direct, proxied]);
    console.log(`http   direct p50 ${format(median(directTimes))} p99 ${format(quantile(directTimes, 0.99))} | through toolexec serve (upstream over ${upstream}) p50 ${format(median(servedTimes))} p99 ${format(quantile(servedTimes, 0.99))} | ratio ${(median(servedTimes) / median(directTimes)).toFixed(3)} (target ≤ 1.15)`);
    if (upstream === "stdio") await modernEra(served.url, throughServe);
    await throughServe.close();
    if (upstream === "http") rmSync(root, { recursive: true, force: true });
  }

  // The same two HTTP legs with the SDK alone: what part of the ratio is the SDK's own.
  const sdkProxy = await startServedHttp(path.join(here, "serve-sdk-proxy.mjs"), everything.url);
  const throughSdk = await connect(new StreamableHTTPClientTransport(new URL(sdkProxy.url)));
  const httpRoot = project({ type: "http", url: everything.url });
  const servedOverHttp = await startServedHttp(host, httpRoot, "http");
  const throughServeHttp = await connect(new StreamableHTTPClientTransport(new URL(servedOverHttp.url)));
  const [directTimes, sdkTimes, serveTimes] = await interleave([
    direct,
    throughSdk,
    { callTool: (request) => throughServeHttp.callTool({ ...request, name: "everything__echo" }) },
  ]);
  const ratio = (times) => (median(times) / median(directTimes)).toFixed(3);
  console.log(`http   direct p50 ${format(median(directTimes))} | SDK-only proxy p50 ${format(median(sdkTimes))} ratio ${ratio(sdkTimes)} | toolexec serve p50 ${format(median(serveTimes))} ratio ${ratio(serveTimes)} | toolexec vs SDK-only proxy ${(median(serveTimes) / median(sdkTimes)).toFixed(3)} (target ≤ 1.05)`);
  await Promise.all([throughSdk.close(), throughServeHttp.close()]);
  await Promise.all([sdkProxy.stop(), servedOverHttp.stop()]);
  rmSync(httpRoot, { recursive: true, force: true });

  // 1,000 calls from 10 clients at once.
  const clients = await Promise.all(Array.from({ length: 10 }, () => connect(new StreamableHTTPClientTransport(new URL(served.url)))));
  const cpuBefore = cpuOf(served.pid);
  const times = [];
  const started = performance.now();
  await Promise.all(
    clients.map(async (client) => {
      for (let call = 0; call < 100; call++) {
        const at = performance.now();
        await client.callTool({ name: "everything__echo", arguments: args });
        times.push(performance.now() - at);
      }
    }),
  );
  const wall = performance.now() - started;
  const cpu = cpuOf(served.pid) - cpuBefore;
  console.log(`http   1,000 calls from 10 clients: p50 ${format(median(times))} p99 ${format(quantile(times, 0.99))}, ${(1000 / (wall / 1000)).toFixed(0)} calls/s, serving process CPU ${((cpu * 1000) / 1000).toFixed(3)} ms per call`);
  await Promise.all([...clients, direct].map((client) => client.close()));
  await served.stop();
  await everything.stop();
}

console.log(`node ${process.version}, ${os.cpus().length} cores, load ${os.loadavg().map((value) => value.toFixed(2)).join(" ")}; ${runs} calls each after ${warmup} warm-up rounds, interleaved`);
await stdio();
await http();
