// The cost of the proxy hop: an SDK Client calling server-everything's `echo` through `toolexec serve`
// (a separate serving process, as clients start it) versus calling server-everything directly,
// interleaved in one run, over stdio and over Streamable HTTP; beside each, the SDK-only proxy
// (bench/serve-sdk-proxy.mjs: the same two legs built with the SDK alone), so the part that is the
// SDK's own is measured, not guessed, and over stdio a bare line proxy (bench/serve-line-proxy.mjs,
// no MCP at all: the floor of any proxy). Both protocol eras: 2025 clients (SDK v1) and 2026-07-28
// clients (SDK v2), over stdio and HTTP, and a stateless HTTP server (a fresh server per request, as
// replicas run). Each serving process serves one client, so its CPU per call is measured from /proc.
// Then 1,000 calls from 10 clients through the HTTP server: p50/p99 and CPU per call.
// Targets (issue 21): ≤ +0.3 ms per call over stdio; ≤ 1.15× a direct call over HTTP with a stdio
// upstream; HTTP→HTTP ≤ 1.05× the SDK-only proxy.
// `--baseline <checkout>` adds, beside each toolexec serving process, the same process from another built
// checkout (its bench/serve-host.mjs and dist/), interleaved in the same rounds: an A/B of two builds.
// `--only stdio|http` runs one half.
// Usage: npm run build && node bench/serve-overhead.mjs [--runs 600] [--warmup 300] [--cpu-prof] [--baseline <dir>] [--only stdio|http]
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
import { StdioClientTransport as ModernStdioTransport } from "@modelcontextprotocol/client/stdio";
import { flag, format, median, quantile } from "./bench-utils.mjs";
import { EVERYTHING_PATH, startEverything } from "./start-everything.mjs";

const runs = flag("runs", 600);
// `--cpu-prof` profiles the serving processes (profiles land in the current folder).
const nodeFlags = process.argv.includes("--cpu-prof") ? ["--cpu-prof"] : [];
const warmup = flag("warmup", 300);
const here = path.dirname(fileURLToPath(import.meta.url));
const host = path.join(here, "serve-host.mjs");
const args = { message: "hello" };
const option = (name) => (process.argv.includes(`--${name}`) ? process.argv[process.argv.indexOf(`--${name}`) + 1] : undefined);
const baselineHost = option("baseline") && path.join(path.resolve(option("baseline")), "bench", "serve-host.mjs");
const only = option("only");

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

/** CPU per call of each serving process (`pid`) over the measured rounds, in ms; undefined where there is none. */
function cpuPerCall(clients, before) {
  return clients.map((client, index) => (client.pid === undefined ? undefined : ((cpuOf(client.pid) - before[index]) * 1000) / runs));
}

/**
 * Calls `echo` on each client in turn, `runs` times, after `warmup` rounds: per-client latencies, and
 * the CPU each serving process (a client's `pid`) spent per measured call — it serves only that client.
 */
async function interleave(clients) {
  const times = clients.map(() => []);
  let before = [];
  for (let round = 0; round < warmup + runs; round++) {
    if (round === warmup) before = clients.map((client) => (client.pid === undefined ? 0 : cpuOf(client.pid)));
    for (let index = 0; index < clients.length; index++) {
      const started = performance.now();
      await clients[index].callTool({ name: clients[index].tool ?? "everything__echo", arguments: args });
      if (round >= warmup) times[index].push(performance.now() - started);
    }
  }
  times.cpu = cpuPerCall(clients, before);
  return times;
}

const cpuText = (ms) => (ms === undefined ? "" : `, CPU ${(ms * 1000).toFixed(0)} µs/call`);

function project(entry) {
  const root = mkdtempSync(path.join(os.tmpdir(), "toolexec-bench-serve-"));
  // Served without the server__ prefix would need transparent proxying; here the tool is everything__echo.
  writeFileSync(path.join(root, "mcp.json"), JSON.stringify({ mcpServers: { everything: entry } }));
  return root;
}

/** An SDK client that starts `node <args>` as its stdio server; `pid` is the server's. */
async function stdioClient(args, tool) {
  const transport = new StdioClientTransport({ command: process.execPath, args: [...nodeFlags, ...args], stderr: "inherit" });
  const client = await connect(transport);
  return { callTool: (request) => client.callTool(request), close: () => client.close(), pid: transport.pid, tool };
}

/**
 * Over stdio: server-everything called directly, through the SDK-only proxy (the floor the SDK sets),
 * through `toolexec serve` by a 2025 client, and by a 2026-07-28 client (SDK v2, no initialize).
 */
async function stdio() {
  const everything = [EVERYTHING_PATH, "stdio"];
  const root = project({ command: process.execPath, args: everything });
  const direct = await stdioClient(everything, "echo");
  direct.pid = undefined;
  const sdkProxy = await stdioClient([path.join(here, "serve-sdk-proxy.mjs"), "--stdio", process.execPath, ...everything]);
  const served = await stdioClient([host, root, "stdio"]);
  const lineProxy = await stdioClient([path.join(here, "serve-line-proxy.mjs"), process.execPath, ...everything]);
  const modernTransport = new ModernStdioTransport({ command: process.execPath, args: [...nodeFlags, host, root, "stdio"], stderr: "inherit" });
  const modernClient = new ModernClient({ name: "bench", version: "1.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
  await modernClient.connect(modernTransport);
  const modern = { callTool: (request) => modernClient.callTool(request), close: () => modernClient.close(), pid: modernTransport.pid };
  const clients = [direct, sdkProxy, served, modern, lineProxy];
  if (baselineHost) clients.push(await stdioClient([baselineHost, root, "stdio"]));
  const times = await interleave(clients);
  await Promise.all(clients.map((client) => client.close()));
  rmSync(root, { recursive: true, force: true });
  const base = median(times[0]);
  const over = (index) => `p50 ${format(median(times[index]))} p99 ${format(quantile(times[index], 0.99))} (+${((median(times[index]) - base) * 1000).toFixed(0)} µs${cpuText(times.cpu[index])})`;
  console.log(`stdio  direct p50 ${format(base)} p99 ${format(quantile(times[0], 0.99))} | SDK-only proxy ${over(1)} | toolexec serve ${over(2)} | overhead ${((median(times[2]) - base) * 1000).toFixed(0)} µs (target ≤ 300 µs), ${((median(times[2]) - median(times[1])) * 1000).toFixed(0)} µs over the SDK-only proxy`);
  console.log(`stdio  through toolexec serve: 2026-07-28 client ${over(3)} | 2026 vs 2025 ${(median(times[3]) / median(times[2])).toFixed(3)}`);
  console.log(`stdio  bare line proxy (no MCP: the floor of any proxy) ${over(4)}`);
  if (baselineHost) console.log(`stdio  baseline (${path.dirname(path.dirname(baselineHost))}) toolexec serve ${over(5)} | this build vs baseline ${(median(times[2]) / median(times[5])).toFixed(3)}`);
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

/** An SDK v1 client of `url` over Streamable HTTP (a 2025-11-25 session, or none against a stateless server). */
async function httpClient(url, pid, tool) {
  const client = await connect(new StreamableHTTPClientTransport(new URL(url)));
  return { callTool: (request) => client.callTool(request), close: () => client.close(), pid, tool };
}

/** A 2026-07-28 client (SDK v2: no initialize, no session; the server builds a fresh server per request). */
async function modernHttpClient(url, pid) {
  const client = new ModernClient({ name: "bench", version: "1.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
  await client.connect(new ModernHttpTransport(new URL(url)));
  return { callTool: (request) => client.callTool(request), close: () => client.close(), pid };
}

/**
 * Over HTTP, two set-ups: the served executor reaches server-everything over HTTP too (two HTTP legs
 * against one, beside the SDK-only proxy with the same legs), and over stdio (the HTTP leg to the
 * client, a stdio leg upstream) with a 2025 session, a 2025 client of a stateless server (a fresh
 * server per request, as replicas run) and a 2026-07-28 client, each on its own serving process.
 */
async function http() {
  const everything = await startEverything("streamableHttp");
  const direct = await httpClient(everything.url, undefined, "echo");
  const summary = (times, index) => `p50 ${format(median(times[index]))} p99 ${format(quantile(times[index], 0.99))} ratio ${(median(times[index]) / median(times[0])).toFixed(3)}${cpuText(times.cpu[index])}`;

  // The same two HTTP legs with the SDK alone: what part of the ratio is the SDK's own.
  const httpRoot = project({ type: "http", url: everything.url });
  const sdkProxy = await startServedHttp(path.join(here, "serve-sdk-proxy.mjs"), everything.url);
  const servedOverHttp = await startServedHttp(host, httpRoot, "http");
  const overHttp = [direct, await httpClient(sdkProxy.url, sdkProxy.pid), await httpClient(servedOverHttp.url, servedOverHttp.pid)];
  const times = await interleave(overHttp);
  console.log(`http   upstream over http: direct p50 ${format(median(times[0]))} | SDK-only proxy ${summary(times, 1)} | toolexec serve ${summary(times, 2)} | toolexec vs SDK-only proxy ${(median(times[2]) / median(times[1])).toFixed(3)} (target ≤ 1.05)`);
  await Promise.all(overHttp.slice(1).map((client) => client.close()));
  await Promise.all([sdkProxy.stop(), servedOverHttp.stop()]);
  rmSync(httpRoot, { recursive: true, force: true });

  const stdioRoot = project({ command: process.execPath, args: [EVERYTHING_PATH, "stdio"] });
  const [served, stateless, modern] = await Promise.all([startServedHttp(host, stdioRoot, "http"), startServedHttp(host, stdioRoot, "http-stateless"), startServedHttp(host, stdioRoot, "http")]);
  const overStdio = [direct, await httpClient(served.url, served.pid), await httpClient(stateless.url, stateless.pid), await modernHttpClient(modern.url, modern.pid)];
  const baseline = baselineHost && (await startServedHttp(baselineHost, stdioRoot, "http"));
  if (baseline) overStdio.push(await httpClient(baseline.url, baseline.pid));
  const eras = await interleave(overStdio);
  console.log(`http   upstream over stdio: direct p50 ${format(median(eras[0]))} | toolexec serve, 2025-11-25 session ${summary(eras, 1)} (target ≤ 1.15) | stateless ${summary(eras, 2)} | 2026-07-28 ${summary(eras, 3)}`);
  if (baseline) console.log(`http   upstream over stdio, baseline 2025-11-25 session ${summary(eras, 4)} | this build vs baseline ${(median(eras[1]) / median(eras[4])).toFixed(3)}`);
  await Promise.all(overStdio.slice(1).map((client) => client.close()));
  await Promise.all([stateless.stop(), modern.stop(), baseline?.stop()]);

  // 1,000 calls from 10 clients at once.
  const clients = await Promise.all(Array.from({ length: 10 }, () => connect(new StreamableHTTPClientTransport(new URL(served.url)))));
  const cpuBefore = cpuOf(served.pid);
  const latencies = [];
  const started = performance.now();
  await Promise.all(
    clients.map(async (client) => {
      for (let call = 0; call < 100; call++) {
        const at = performance.now();
        await client.callTool({ name: "everything__echo", arguments: args });
        latencies.push(performance.now() - at);
      }
    }),
  );
  const wall = performance.now() - started;
  const cpu = cpuOf(served.pid) - cpuBefore;
  console.log(`http   1,000 calls from 10 clients: p50 ${format(median(latencies))} p99 ${format(quantile(latencies, 0.99))}, ${(1000 / (wall / 1000)).toFixed(0)} calls/s, serving process CPU ${cpu.toFixed(3)} ms per call`);
  await Promise.all([...clients, direct].map((client) => client.close()));
  await served.stop();
  await everything.stop();
  rmSync(stdioRoot, { recursive: true, force: true });
}

console.log(`node ${process.version}, ${os.cpus().length} cores, load ${os.loadavg().map((value) => value.toFixed(2)).join(" ")}; ${runs} calls each after ${warmup} warm-up rounds, interleaved`);
if (only !== "http") await stdio();
if (only !== "stdio") await http();
