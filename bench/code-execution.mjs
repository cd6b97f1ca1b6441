// Code mode, in one run: warm round trip of trivial code (p50/p99), a three-tool composition's
// overhead beyond the tools' own time, executions per second with the pool busy, and how late
// TIMEOUT comes after the deadline of `while (true) {}`. Each is set against the bare cost of a
// message round trip to a worker thread and to a child process, measured in the same run.
// Usage: npm run build && node bench/code-execution.mjs [--runs 1000] [--burst 4000] [--pool 10]
import { fork } from "node:child_process";
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { Worker } from "node:worker_threads";
import { createExecutor } from "../dist/index.js";
import { flag, format, median, quantile } from "./bench-utils.mjs";

const runs = flag("runs", 1000);
const burst = flag("burst", 4000);
const poolSize = flag("pool", 10);
const root = mkdtempSync(path.join(os.tmpdir(), "toolexec-bench-code-"));
mkdirSync(path.join(root, "tools"));
writeFileSync(path.join(root, "tools.json"), JSON.stringify({ tools: [] }));
writeFileSync(path.join(root, "mcp.json"), JSON.stringify({ mcpServers: {} }));

/** An in-process tool with no cost of its own beyond the pipeline, so overhead is all that is left. */
const noopPlugin = {
  name: "bench",
  async start() {
    return {
      listTools: () => [{ name: "noop", description: "Returns its arguments.", inputSchema: { type: "object" }, parallel: true }],
      callTool: async (call) => ({ ok: true, value: call.arguments }),
      close: async () => {},
    };
  },
};

/**
 * CPU used so far by this process and by its code runtimes (Linux: /proc), in ms. CPU per execution
 * is what toolexec costs whatever else the machine runs; wall-clock figures move with its load.
 */
function cpuNow() {
  const host = process.cpuUsage();
  let runtimes = 0;
  try {
    const children = readFileSync(`/proc/${process.pid}/task/${process.pid}/children`, "utf8").trim().split(" ").filter(Boolean);
    for (const pid of children) {
      const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
      runtimes += ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
    }
  } catch {
    runtimes = Number.NaN;
  }
  return { host: (host.user + host.system) / 1000, runtimes };
}

const cpuPerRun = (before, after, count) =>
  `host CPU ${format((after.host - before.host) / count)}, runtime CPU ${Number.isNaN(after.runtimes) ? "n/a" : format((after.runtimes - before.runtimes) / count)} per execution`;

async function roundTrips(send, count) {
  const times = [];
  for (let index = 0; index < count; index++) {
    const started = performance.now();
    await send(index);
    times.push(performance.now() - started);
  }
  return times;
}

async function workerBaseline(count) {
  const worker = new Worker("const { parentPort } = require('node:worker_threads'); parentPort.on('message', (m) => parentPort.postMessage(m));", { eval: true });
  const send = (index) => new Promise((resolve) => { worker.once("message", resolve); worker.postMessage({ index }); });
  await roundTrips(send, 50);
  const times = await roundTrips(send, count);
  await worker.terminate();
  return times;
}

async function childBaseline(count) {
  const script = path.join(root, "echo-child.cjs");
  writeFileSync(script, "process.on('message', (m) => process.send(m));");
  const child = fork(script, [], { execArgv: [], env: {} });
  const send = (index) => new Promise((resolve) => { child.once("message", resolve); child.send({ index }); });
  await roundTrips(send, 50);
  const times = await roundTrips(send, count);
  child.kill();
  return times;
}

const executor = await createExecutor({ root, watch: false, logDir: false, plugins: [noopPlugin], maxConcurrency: 64, codeExecution: { enabled: true, poolSize, maxQueue: burst } });
const lines = [];
const report = (label, value) => {
  lines.push(`${label.padEnd(58)} ${value}`);
  console.log(lines.at(-1));
};
try {
  const workerTimes = await workerBaseline(runs);
  const childTimes = await childBaseline(runs);
  const workerRoundTrip = median(workerTimes);
  report("baseline: worker_threads message round trip, p50", format(workerRoundTrip));
  report("baseline: child process IPC round trip, p50", format(median(childTimes)));

  const run = async (code) => {
    const result = await executor.executeCode({ code });
    if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
    return result;
  };
  // Warm-up long enough for the JIT to reach steady state (fewer runs measure the optimizer, not us).
  for (let index = 0; index < 1500; index++) await run("1 + 1");

  let before = cpuNow();
  const trivial = await roundTrips(() => run("1 + 1"), runs);
  report("trivial code (1 + 1) round trip, p50", `${format(median(trivial))}  (${(median(trivial) / workerRoundTrip).toFixed(1)}x worker round trip)`);
  report("trivial code (1 + 1) round trip, p99", format(quantile(trivial, 0.99)));
  report("trivial code (1 + 1) CPU", cpuPerRun(before, cpuNow(), runs));

  // The tools' own time: the same three calls straight through executor.callTool.
  const direct = await roundTrips(async () => {
    for (const n of [1, 2, 3]) await executor.callTool("noop", { n });
  }, runs);
  before = cpuNow();
  const composed = await roundTrips(() => run("const a = call_tool('local', 'noop', { n: 1 });\nconst b = call_tool('local', 'noop', { n: 2 });\nconst c = call_tool('local', 'noop', { n: 3 });\n[a.value.n, b.value.n, c.value.n]"), runs);
  const overhead = median(composed) - median(direct);
  report("three-tool composition, p50 (tools called directly)", `${format(median(composed))}  (${format(median(direct))})`);
  report("three-tool composition CPU", cpuPerRun(before, cpuNow(), runs));
  report("composition overhead beyond the tools' own time, p50", `${format(overhead)}  (${(overhead / workerRoundTrip).toFixed(1)}x worker round trip)`);

  const started = performance.now();
  const all = await Promise.all(Array.from({ length: burst }, () => executor.executeCode({ code: "1 + 1" })));
  const seconds = (performance.now() - started) / 1000;
  const failed = all.filter((result) => !result.ok).length;
  report(`executions per second, ${burst} at once on a pool of ${poolSize}`, `${Math.round(burst / seconds)}/s${failed ? `  (${failed} failed)` : ""}`);

  // The same burst with one runtime per core: more runtimes than cores only adds context switches.
  const cores = os.cpus().length;
  const sized = await createExecutor({ root, watch: false, logDir: false, plugins: [noopPlugin], maxConcurrency: 64, codeExecution: { enabled: true, poolSize: cores, maxQueue: burst } });
  try {
    for (let index = 0; index < 500; index++) await sized.executeCode({ code: "1 + 1" });
    const sizedStart = performance.now();
    const sizedAll = await Promise.all(Array.from({ length: burst }, () => sized.executeCode({ code: "1 + 1" })));
    const sizedSeconds = (performance.now() - sizedStart) / 1000;
    const sizedFailed = sizedAll.filter((result) => !result.ok).length;
    report(`executions per second, ${burst} at once on a pool of ${cores} (one per core)`, `${Math.round(burst / sizedSeconds)}/s${sizedFailed ? `  (${sizedFailed} failed)` : ""}`);
  } finally {
    await sized.close();
  }

  const late = [];
  for (let index = 0; index < 5; index++) {
    await run("0");
    const begun = Date.now();
    const result = await executor.executeCode({ code: "while (true) {}", options: { timeout_ms: 200 } });
    if (result.ok || result.error.code !== "TIMEOUT") throw new Error("expected TIMEOUT");
    late.push(Date.now() - begun - 200);
  }
  report("while (true) {}: TIMEOUT after the deadline, median (max)", `${median(late)} ms (${Math.max(...late)} ms)`);
} finally {
  await executor.close();
  rmSync(root, { recursive: true, force: true });
}
