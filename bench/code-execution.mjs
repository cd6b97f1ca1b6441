// Code mode, in one run: warm round trip of trivial code (p50/p99), a three-tool composition's
// overhead beyond the tools' own time, a 760 KB result, the cost of one synchronous call_tool and
// of one call in a call_tools fan-out (wall, and CPU of host and runtime), executions per second
// with the pool busy (at the default pool, sized by CPU cores, and at the specification's 10), and
// how late TIMEOUT comes after the deadline of `while (true) {}`.
// Each is set against the bare cost of a message round trip to a worker thread and to a child
// process, measured in the same run. CPU figures hold whatever else loads the machine; wall-clock
// figures move with it.
// Usage: npm run build && node bench/code-execution.mjs [--runs 1000] [--burst 4000] [--pool N]
import { fork } from "node:child_process";
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { Worker } from "node:worker_threads";
import { createExecutor } from "../dist/index.js";
import { DEFAULT_CODE_POOL_SIZE } from "../dist/plugins/code/config/code-execution-config-schema.js";
import { flag, format, median, quantile } from "./bench-utils.mjs";

const runs = flag("runs", 1000);
const burst = flag("burst", 4000);
const poolSize = flag("pool", DEFAULT_CODE_POOL_SIZE);
/** The pool size the specification names, measured next to the default for comparison. */
const SPECIFICATION_POOL_SIZE = 10;
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
/** Sub-call figures are tens of microseconds: one more decimal. */
const formatFine = (ms) => `${ms.toFixed(3)} ms`;

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
  lines.push(`${label.padEnd(66)} ${value}`);
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

  // A large result: serialized in the runtime, parsed on the host.
  const largeResult = "Array.from({ length: 10000 }, (_, i) => ({ id: i, name: `row ${i}`, price: i * 1.5, tags: ['a', 'b'], 'odd key': true }))";
  for (let index = 0; index < 30; index++) await run(largeResult);
  before = cpuNow();
  const large = await roundTrips(() => run(largeResult), 100);
  report("result of 10,000 rows (760 KB of JSON), p50", format(median(large)));
  report("result of 10,000 rows CPU", cpuPerRun(before, cpuNow(), 100));

  // One synchronous call_tool: 30 in a run, against the trivial run, so per-run costs cancel out.
  const SUB_CALLS = 30;
  const manyCalls = `${Array.from({ length: SUB_CALLS }, (_, index) => `call_tool('local', 'noop', { n: ${index} });`).join("\n")}\n0`;
  const subRuns = Math.max(50, Math.round(runs / 4));
  for (let index = 0; index < 200; index++) await run(manyCalls);
  before = cpuNow();
  const trivialAgain = await roundTrips(() => run("1 + 1"), subRuns);
  const middle = cpuNow();
  const many = await roundTrips(() => run(manyCalls), subRuns);
  const after = cpuNow();
  const perCall = (key) => ((after[key] - middle[key]) - (middle[key] - before[key])) / subRuns / SUB_CALLS;
  report("one sync call_tool (30 per run, trivial run subtracted), p50", formatFine((median(many) - median(trivialAgain)) / SUB_CALLS));
  report("one sync call_tool CPU", `host CPU ${formatFine(perCall("host"))}, runtime CPU ${Number.isNaN(after.runtimes) ? "n/a" : formatFine(perCall("runtimes"))}`);

  // The same 30 calls as one call_tools fan-out: their frames and answers travel in batches.
  const fanOut = `(await call_tools(Array.from({ length: ${SUB_CALLS} }, (_, n) => ({ server: 'local', tool: 'noop', args: { n } })))).length`;
  for (let index = 0; index < 200; index++) await run(fanOut);
  const fanBefore = cpuNow();
  const fanned = await roundTrips(() => run(fanOut), subRuns);
  const fanAfter = cpuNow();
  const perFanned = (key) => ((fanAfter[key] - fanBefore[key]) - (middle[key] - before[key])) / subRuns / SUB_CALLS;
  report("one call in a call_tools fan-out of 30 (trivial subtracted), p50", formatFine((median(fanned) - median(trivialAgain)) / SUB_CALLS));
  report("one call in a fan-out CPU", `host CPU ${formatFine(perFanned("host"))}, runtime CPU ${Number.isNaN(fanAfter.runtimes) ? "n/a" : formatFine(perFanned("runtimes"))}`);

  /** Bursts until every runtime of the pool has started: a start (~0.3 s of CPU) inside the measured burst is not throughput. */
  const warmPool = async (target) => {
    for (let round = 0; round < 3; round++) await Promise.all(Array.from({ length: 200 }, () => target.executeCode({ code: "1 + 1" })));
  };
  /** Executions per second with `burst` runs submitted at once. */
  const throughput = async (target) => {
    const burstStart = performance.now();
    const results = await Promise.all(Array.from({ length: burst }, () => target.executeCode({ code: "1 + 1" })));
    const burstSeconds = (performance.now() - burstStart) / 1000;
    const burstFailed = results.filter((result) => !result.ok).length;
    return `${Math.round(burst / burstSeconds)}/s${burstFailed ? `  (${burstFailed} failed)` : ""}`;
  };
  const defaultLabel = poolSize === DEFAULT_CODE_POOL_SIZE ? `the default pool of ${poolSize} (${os.availableParallelism()} cores)` : `a pool of ${poolSize}`;
  await warmPool(executor);
  before = cpuNow();
  report(`executions per second, ${burst} at once on ${defaultLabel}`, await throughput(executor));
  report("  CPU during that burst", cpuPerRun(before, cpuNow(), burst));

  // The same burst on the specification's pool of 10: more runtimes than cores only add context switches.
  if (poolSize !== SPECIFICATION_POOL_SIZE) {
    const wide = await createExecutor({ root, watch: false, logDir: false, plugins: [noopPlugin], maxConcurrency: 64, codeExecution: { enabled: true, poolSize: SPECIFICATION_POOL_SIZE, maxQueue: burst } });
    try {
      await warmPool(wide);
      before = cpuNow();
      report(`executions per second, ${burst} at once on a pool of ${SPECIFICATION_POOL_SIZE}`, await throughput(wide));
      report("  CPU during that burst", cpuPerRun(before, cpuNow(), burst));
    } finally {
      await wide.close();
    }
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
