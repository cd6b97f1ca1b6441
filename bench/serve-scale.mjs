// Serving at scale, loopback only: N `toolexec serve --http --stateless --store redis://…` replicas
// behind a real nginx (round robin) sharing a real redis-server, 50 concurrent MCP clients (SDK v1 and
// v2 clients, half each) calling an I/O-bound MCP tool (the fixture server's read_slow, 50 ms).
// 1. 3 replicas at the default concurrency: errors must be 0.
// 2. --max-concurrency 2 per replica: calls/s for N = 1, 2, 3 and the ratio to N = 1 (target ≥ 0.9·N;
//    the ceiling is N × 2 / 50 ms = 40·N calls/s). Each figure is the median of --rounds timed windows.
// 3. A registry write through replica 1, listed through replica 2: the median delay over --writes writes.
// On a machine whose cores are busy, the calls' CPU (clients, nginx, replicas, upstream servers) caps
// the rate below the replicas' capacity; --delay 500 makes capacity the limit again (ceiling 4·N).
// Each phase also says where the CPU went per call (replicas, their upstream servers, nginx, redis, the
// clients in this process, its worker threads) and how busy the whole machine was (every process, other users' too): a
// machine near 100 % busy is CPU-bound, so the figure is the machine's, not the replicas' capacity.
// The clients run in --threads worker threads (default 4), so the load generator is not one thread
// holding one share of the CPU of a busy machine.
// Usage: npm run build && node bench/serve-scale.mjs [--clients 50] [--threads 4] [--seconds 4] [--rounds 3] [--writes 5] [--delay 50]
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import { Worker } from "node:worker_threads";
import path from "node:path";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";
import { flag, median } from "./bench-utils.mjs";
import { startNginx, startRedis, startReplica, writeClusterProject } from "../test/helpers/serve-cluster.mjs";

const CLIENTS = Number(flag("clients", "50"));
const SECONDS = Number(flag("seconds", "4"));
const ROUNDS = Number(flag("rounds", "3"));
const WRITES = Number(flag("writes", "5"));
const DELAY_MS = Number(flag("delay", "50"));
const THREADS = Number(flag("threads", "4"));
const API_KEY = "bench-key-0123456789abcdef0123456789";

/** A cluster of `replicas` on fresh copies of the project, one Redis prefix per cluster. */
async function startCluster(redis, replicas, maxConcurrency) {
  const folder = mkdtempSync(path.join(os.tmpdir(), "toolexec-serve-scale-"));
  const store = `${redis.url}?prefix=bench-${replicas}-${maxConcurrency ?? "default"}:`;
  const started = [];
  for (let index = 0; index < replicas; index++) {
    const root = path.join(folder, `replica-${index}`);
    writeClusterProject(root);
    started.push(await startReplica({ root, store, maxConcurrency, apiKey: API_KEY }));
  }
  const nginx = await startNginx(started.map((replica) => replica.port));
  return {
    nginx,
    replicas: started,
    async close() {
      await nginx.close();
      await Promise.all(started.map((replica) => replica.close()));
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

async function connectClients(url, count) {
  return Promise.all(
    Array.from({ length: count }, async (_, index) => {
      const v2 = index % 2 === 1;
      const client = v2 ? new ClientV2({ name: "bench-v2", version: "1.0.0" }) : new ClientV1({ name: "bench-v1", version: "1.0.0" });
      await client.connect(v2 ? new TransportV2(new URL(url)) : new TransportV1(new URL(url)));
      return client;
    }),
  );
}

/** One answer of a worker (bench/serve-scale-clients.mjs) to one message. */
function ask(worker, message) {
  return new Promise((resolve, reject) => {
    const answered = (answer) => {
      worker.off("error", reject);
      resolve(answer);
    };
    worker.once("message", answered);
    worker.once("error", reject);
    worker.postMessage(message);
  });
}

/**
 * The load: `count` clients of `url` spread over `threads` worker threads (one thread alone gets one
 * share of a busy machine's CPU and becomes the limit). `load(seconds)`: every client calls in a loop;
 * calls/s of those that ended inside the window, and the errors.
 */
async function startLoad(url, count, threads) {
  const workers = Array.from({ length: threads }, () => new Worker(new URL("./serve-scale-clients.mjs", import.meta.url)));
  let first = 0;
  await Promise.all(
    workers.map((worker, index) => {
      const share = Math.floor(count / threads) + (index < count % threads ? 1 : 0);
      const connect = ask(worker, { connect: { url, count: share, first } });
      first += share;
      return connect;
    }),
  );
  return {
    async load(seconds) {
      const results = (await Promise.all(workers.map((worker) => ask(worker, { run: { seconds, delayMs: DELAY_MS } })))).map((answer) => answer.ran);
      const calls = results.reduce((sum, result) => sum + result.calls, 0);
      const elapsed = Math.max(...results.map((result) => result.elapsedMs));
      return { perSecond: calls / (elapsed / 1000), calls, errors: results.flatMap((result) => result.errors) };
    },
    async close() {
      await Promise.all(workers.map((worker) => ask(worker, { close: true })));
      await Promise.all(workers.map((worker) => worker.terminate()));
    },
  };
}

/** CPU ms a process used so far (user + system), from /proc; 0 once it is gone. */
function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

/** This process's descendants by kind (replica, upstream server, nginx, redis), from /proc. */
function descendants() {
  const children = new Map();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const parent = Number(readFileSync(`/proc/${entry}/stat`, "utf8").split(") ")[1].split(" ")[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // Gone meanwhile.
    }
  }
  const kinds = { replicas: [], upstream: [], nginx: [], redis: [] };
  const visit = (pid) => {
    for (const child of children.get(pid) ?? []) {
      let command = "";
      try {
        command = readFileSync(`/proc/${child}/cmdline`, "utf8");
      } catch {
        continue;
      }
      if (command.includes("nginx")) kinds.nginx.push(child);
      else if (command.includes("redis-server")) kinds.redis.push(child);
      else if (command.includes("stdio-server.mjs")) kinds.upstream.push(child);
      else if (command.includes("serve")) kinds.replicas.push(child);
      visit(child);
    }
  };
  visit(process.pid);
  return kinds;
}

/** CPU used so far by each kind of process, by this one (the clients), and by the whole machine. */
function cpuSnapshot() {
  const kinds = descendants();
  const used = Object.fromEntries(Object.entries(kinds).map(([kind, pids]) => [kind, pids.reduce((sum, pid) => sum + cpuMs(pid), 0)]));
  const clients = process.cpuUsage();
  used.clients = (clients.user + clients.system) / 1000;
  const [, ...ticks] = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).map(Number);
  return { used, busy: ticks[0] + ticks[1] + ticks[2] + ticks[5] + ticks[6] + ticks[7], all: ticks.slice(0, 8).reduce((sum, tick) => sum + tick, 0) };
}

/** Where the CPU of `calls` went, per call, and how busy the machine was meanwhile. */
function cpuReport(before, after, calls) {
  const parts = Object.keys(after.used).map((kind) => `${kind} ${((after.used[kind] - before.used[kind]) / calls).toFixed(2)}`);
  const total = Object.keys(after.used).reduce((sum, kind) => sum + after.used[kind] - before.used[kind], 0);
  const busy = (100 * (after.busy - before.busy)) / (after.all - before.all);
  return `CPU ms per call: ${parts.join(", ")} (all ${(total / calls).toFixed(2)}); machine busy ${busy.toFixed(0)} % of ${os.cpus().length} cores`;
}

async function measure(redis, replicas, maxConcurrency) {
  const cluster = await startCluster(redis, replicas, maxConcurrency);
  const clients = await startLoad(cluster.nginx.url, CLIENTS, THREADS);
  try {
    await clients.load(1); // warm-up: upstream servers started, code paths hot
    const rounds = [];
    const errors = [];
    let calls = 0;
    const before = cpuSnapshot();
    for (let round = 0; round < ROUNDS; round++) {
      const result = await clients.load(SECONDS);
      rounds.push(result.perSecond);
      errors.push(...result.errors);
      calls += result.calls;
    }
    const cpu = cpuReport(before, cpuSnapshot(), calls);
    return { perSecond: median(rounds), rounds, errors, cluster, clients, cpu };
  } catch (error) {
    await clients.close();
    await cluster.close();
    throw error;
  }
}

async function closeAll({ cluster, clients }) {
  await clients.close();
  await cluster.close();
}

async function registryPropagation(cluster) {
  const second = await connectClients(cluster.replicas[1].url, 1);
  const delays = [];
  for (let write = 0; write < WRITES; write++) {
    const name = `bench_tool_${write}`;
    const entry = { name, description: "bench", runtime: "shell", script: `${name}.sh`, inputSchema: { type: "object" } };
    const started = Date.now();
    const response = await fetch(cluster.replicas[0].url.replace(/\/mcp$/, "/api/tools"), { method: "POST", headers: { authorization: `Bearer ${API_KEY}`, "content-type": "application/json" }, body: JSON.stringify({ entry, script: "echo '{}'\n" }) });
    if (response.status !== 201) throw new Error(`registry write failed: ${response.status} ${await response.text()}`);
    while (!(await second[0].listTools()).tools.some((tool) => tool.name === name)) await new Promise((resolve) => setTimeout(resolve, 10));
    delays.push(Date.now() - started);
  }
  await second[0].close();
  return delays;
}

const redis = await startRedis();
try {
  console.log(`serve-scale: ${CLIENTS} clients (v1 and v2 half each), MCP tool awaiting ${DELAY_MS} ms, ${ROUNDS} × ${SECONDS} s windows per figure, load average ${os.loadavg().map((value) => value.toFixed(2)).join(" ")}`);
  const open = await measure(redis, 3, undefined);
  console.log(`3 replicas, default --max-concurrency (8): ${open.perSecond.toFixed(1)} calls/s (rounds ${open.rounds.map((value) => value.toFixed(1)).join(", ")}), errors: ${open.errors.length}${open.errors.length ? ` (first: ${open.errors[0]})` : ""}`);
  console.log(`  ${open.cpu}`);
  const delays = await registryPropagation(open.cluster);
  console.log(`registry write via replica 1 → listed via replica 2: median ${median(delays)} ms (${delays.join(", ")} ms)`);
  await closeAll(open);

  const figures = [];
  for (const replicas of [1, 2, 3]) {
    const measured = await measure(redis, replicas, 2);
    await closeAll(measured);
    figures.push(measured);
    const ratio = measured.perSecond / figures[0].perSecond;
    console.log(`--max-concurrency 2, N = ${replicas}: ${measured.perSecond.toFixed(1)} calls/s (rounds ${measured.rounds.map((value) => value.toFixed(1)).join(", ")}; ceiling ${((2 * 1000) / DELAY_MS) * replicas}), ratio to N = 1: ${ratio.toFixed(2)} (target ≥ ${(0.9 * replicas).toFixed(1)}), errors: ${measured.errors.length}`);
    console.log(`  ${measured.cpu}`);
  }
  console.log(`load average after: ${os.loadavg().map((value) => value.toFixed(2)).join(" ")}`);
} finally {
  await redis.close();
}
