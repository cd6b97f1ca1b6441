// Servers added at run time, shared through a real redis-server (loopback): two executors (two
// replicas, each on its own copy of a project) on one Redis store. Measured over --runs rounds:
// 1. addServer through replica 1 → the server's tools listed through replica 2 (target ≤ 1 s; it
//    includes replica 2 starting its own stdio server process, so it is set beside the time replica 1
//    takes to start and connect the same server itself: that part is the server's start, not sharing);
// 2. removeServer through replica 2 → gone from replica 1;
// 3. baseline, same run: a registry write (registerTool) through replica 1 → listed through replica 2.
// Usage: npm run build && node bench/runtime-server-sharing.mjs [--runs 7]
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createExecutor } from "../dist/index.js";
import { flag, median } from "./bench-utils.mjs";
import { FIXTURE_MCP_SERVER, startRedis } from "../test/helpers/serve-cluster.mjs";

const RUNS = Number(flag("runs", "7"));
process.env.TOOLEXEC_STORE_KEY ??= "bench-store-key-0123456789abcdef0123";
const silent = { debug() {}, info() {}, warn() {}, error() {} };

/** Poll `check` every 5 ms until true; the ms it took from `since`. */
async function until(check, since) {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 5));
  return Date.now() - since;
}

const names = async (executor) => (await executor.listTools()).map((tool) => tool.name);

const redis = await startRedis();
const folder = mkdtempSync(path.join(os.tmpdir(), "toolexec-runtime-sharing-"));
const replicas = [];
try {
  const store = `${redis.url}?prefix=bench-runtime:`;
  for (const index of [0, 1]) {
    const root = mkdtempSync(path.join(folder, `replica-${index}-`));
    writeFileSync(path.join(root, "tools.json"), '{ "tools": [] }\n');
    replicas.push(await createExecutor({ root, store, mcpConfig: false, logger: silent, logDir: false }));
  }
  const [first, second] = replicas;
  const added = [];
  const local = [];
  const removed = [];
  const written = [];
  for (let run = 0; run < RUNS; run++) {
    const name = `fixture${run}`;
    let since = Date.now();
    const result = await first.addServer(name, { command: process.execPath, args: [FIXTURE_MCP_SERVER] }, { trusted: true });
    if (!result.ok) throw new Error(`addServer failed: ${result.error.message}`);
    local.push(Date.now() - since);
    added.push(await until(async () => (await names(second)).includes(`${name}__echo`), since));
    since = Date.now();
    await second.removeServer(name);
    removed.push(await until(async () => !(await names(first)).includes(`${name}__echo`), since));
    since = Date.now();
    await first.registerTool({ name: `greet${run}`, description: "Say hello", runtime: "shell", script: "greet.sh", inputSchema: { type: "object" } }, { script: "echo '{}'\n" });
    written.push(await until(async () => (await names(second)).includes(`greet${run}`), since));
  }
  console.log(`addServer via replica 1 → listed via replica 2: median ${median(added)} ms (${added.join(", ")} ms)`);
  console.log(`addServer on replica 1 itself (its own server started and connected): median ${median(local)} ms (${local.join(", ")} ms)`);
  console.log(`removeServer via replica 2 → gone via replica 1: median ${median(removed)} ms (${removed.join(", ")} ms)`);
  console.log(`baseline, registry write via replica 1 → listed via replica 2: median ${median(written)} ms (${written.join(", ")} ms)`);
  console.log(`ratio listed on replica 2 / connected on replica 1: ${(median(added) / median(local)).toFixed(2)}`);
} finally {
  await Promise.all(replicas.map((replica) => replica.close()));
  await redis.close();
  rmSync(folder, { recursive: true, force: true });
}
