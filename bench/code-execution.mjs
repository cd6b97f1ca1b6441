// Code mode, in one run, set against the bare cost of a child-process IPC round trip (and a worker
// thread's) measured in the same run: the warm round trip of trivial code (p50/p99), a three-tool
// composition's overhead beyond the same three calls made directly, the host's and the runtimes'
// CPU per execution, trivial code with 200 tools listed to code, and executions per second on the
// default pool (one runtime per core) both before and after a section of large results (760 KB
// ×40) and 30-call fan-outs (×200), with the cores the burst kept busy (below the core count on a
// quiet machine, the burst waits on latency, not CPU). Then,
// for this build alone: a 760 KB result, one synchronous call_tool, one call of a call_tools
// fan-out, a burst on a pool of 10, and how late TIMEOUT comes after the deadline of `while (true) {}`.
//
// Each build runs in its own process (bench/code-execution-target.mjs); with `--baseline <dist>`
// (another build's dist/ folder, e.g. an older commit built in a git worktree) both run side by
// side, their rounds interleaved (the order alternating), so machine load falls on both alike.
// CPU figures hold whatever else loads the machine; wall-clock figures move with it.
// Usage: npm run build && node bench/code-execution.mjs [--runs 1000] [--burst 4000] [--rounds 3] [--baseline /path/to/dist]
import { fork } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { format, median, roundTrips } from "./bench-utils.mjs";

const option = (name) => {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1] : undefined;
};
const runs = Number(option("runs") ?? 1000);
const burst = Number(option("burst") ?? 4000);
const rounds = Number(option("rounds") ?? 3);
const baselineDist = option("baseline");
const scratch = mkdtempSync(path.join(os.tmpdir(), "toolexec-bench-ipc-"));

async function workerBaseline(count) {
  const worker = new Worker("const { parentPort } = require('node:worker_threads'); parentPort.on('message', (m) => parentPort.postMessage(m));", { eval: true });
  const send = (index) => new Promise((resolve) => { worker.once("message", resolve); worker.postMessage({ index }); });
  await roundTrips(send, 50);
  const times = await roundTrips(send, count);
  await worker.terminate();
  return median(times);
}

async function childBaseline(count) {
  const script = path.join(scratch, "echo-child.cjs");
  writeFileSync(script, "process.on('message', (m) => process.send(m));");
  const child = fork(script, [], { execArgv: [], env: {} });
  const send = (index) => new Promise((resolve) => { child.once("message", resolve); child.send({ index }); });
  await roundTrips(send, 50);
  const times = await roundTrips(send, count);
  child.kill();
  return median(times);
}

/** A build under test: a forked target answering one command at a time. */
async function startTarget(label, dist) {
  const child = fork(new URL("./code-execution-target.mjs", import.meta.url), [dist, String(burst)], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  let nextId = 0;
  const pending = new Map();
  await new Promise((resolve, reject) => {
    child.once("message", resolve);
    child.once("exit", (code) => reject(new Error(`${label} exited (${code}) before it was ready`)));
  });
  child.on("message", ({ id, figures, error }) => {
    const waiter = pending.get(id);
    pending.delete(id);
    if (error) waiter.reject(new Error(`${label}: ${error}`));
    else waiter.resolve(figures);
  });
  return {
    label,
    ask: (command, parameters = {}) =>
      new Promise((resolve, reject) => {
        pending.set(++nextId, { resolve, reject });
        child.send({ id: nextId, command, ...parameters });
      }),
  };
}

const lines = [];
const report = (label, value) => {
  lines.push(`${label.padEnd(72)} ${value}`);
  console.log(lines.at(-1));
};
const range = (values, show = format) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 1 ? show(sorted[0]) : `${show(median(sorted))} (${show(sorted[0])}–${show(sorted.at(-1))})`;
};
const fine = (ms) => `${ms.toFixed(3)} ms`;
/**
 * Cores a burst kept busy: CPU of the host and its runtimes per execution over wall time per
 * execution. Below the core count, runtimes sat idle waiting for the host (latency-bound) or the
 * machine's other work took the cores; at it, the burst is CPU-bound.
 */
const busyCores = (burst) => ((burst.cpu.host + burst.cpu.runtime) * burst.perSecond) / 1000;
const cores = (value) => value.toFixed(2);
const rate = (value) => `${Math.round(value)}/s`;

const loadAtStart = os.loadavg().map((load) => load.toFixed(2)).join(" ");
const targets = [await startTarget("this build", path.resolve(new URL("../dist", import.meta.url).pathname))];
if (baselineDist) targets.push(await startTarget(`baseline ${path.basename(path.dirname(path.resolve(baselineDist)))}`, path.resolve(baselineDist)));
/** Figures by target label, then by name: one value per round. */
const figures = new Map(targets.map((target) => [target.label, {}]));
const record = (target, name, value) => (figures.get(target.label)[name] ??= []).push(value);
/** Each command on every target, the order alternating by round. */
const eachTarget = async (round, task) => {
  for (const target of round % 2 === 0 ? targets : [...targets].reverse()) await task(target);
};

try {
  const ipc = [];
  const worker = [];
  for (const target of targets) await target.ask("warm");
  for (let round = 0; round < rounds; round++) {
    ipc.push(await childBaseline(runs));
    worker.push(await workerBaseline(runs));
    await eachTarget(round, async (target) => {
      const trivial = await target.ask("trivial", { runs });
      record(target, "trivial", trivial.p50);
      record(target, "trivialP99", trivial.p99);
      record(target, "trivialHostCpu", trivial.cpu.host);
      record(target, "trivialRuntimeCpu", trivial.cpu.runtime);
      const composition = await target.ask("composition", { runs });
      record(target, "direct", composition.direct);
      record(target, "overhead", composition.overhead);
      record(target, "compositionHostCpu", composition.cpu.host);
      record(target, "compositionRuntimeCpu", composition.cpu.runtime);
      const before = await target.ask("throughput");
      record(target, "before", before.perSecond);
      record(target, "beforeHostCpu", before.cpu.host);
      record(target, "beforeRuntimeCpu", before.cpu.runtime);
      record(target, "beforeCores", busyCores(before));
      const wide = await target.ask("wideCatalog", { runs: Math.round(runs / 2) });
      record(target, "wide", wide.p50);
      record(target, "wideHostCpu", wide.cpu.host);
      record(target, "wideRuntimeCpu", wide.cpu.runtime);
    });
  }
  for (const target of targets) await target.ask("heavy");
  for (let round = 0; round < rounds; round++) {
    await eachTarget(round, async (target) => {
      const after = await target.ask("throughput");
      record(target, "after", after.perSecond);
      record(target, "afterHostCpu", after.cpu.host);
      record(target, "afterRuntimeCpu", after.cpu.runtime);
      record(target, "afterCores", busyCores(after));
    });
  }
  const ipcRoundTrip = median(ipc);
  report(`machine: ${os.availableParallelism()} cores, load average at the start / at the end`, `${loadAtStart} / ${os.loadavg().map((load) => load.toFixed(2)).join(" ")}`);
  report("baseline: child process IPC round trip, p50", range(ipc, fine));
  report("baseline: worker_threads message round trip, p50", range(worker, fine));
  for (const target of targets) {
    const own = figures.get(target.label);
    console.log(`\n${target.label} (medians of ${rounds} rounds, range in brackets)`);
    report("trivial code (1 + 1) round trip, p50", `${range(own.trivial)}  = ${(median(own.trivial) / ipcRoundTrip).toFixed(2)}x IPC round trip`);
    report("trivial code (1 + 1) round trip, p99", range(own.trivialP99));
    report("trivial code CPU per execution: host / runtime", `${range(own.trivialHostCpu, fine)} / ${range(own.trivialRuntimeCpu, fine)}`);
    report("three calls made directly, p50", range(own.direct));
    report("three-tool composition, overhead beyond the three direct calls, p50", `${range(own.overhead)}  = ${(median(own.overhead) / ipcRoundTrip).toFixed(2)}x IPC round trip`);
    report("three-tool composition CPU per execution: host / runtime", `${range(own.compositionHostCpu, fine)} / ${range(own.compositionRuntimeCpu, fine)}`);
    report("trivial code with 200 tools listed to code, p50", `${range(own.wide)}  (CPU host ${range(own.wideHostCpu, fine)} / runtime ${range(own.wideRuntimeCpu, fine)})`);
    report(`executions/s, ${burst} at once on the default pool, warm, before the heavy section`, `${range(own.before, rate)}  (CPU host ${range(own.beforeHostCpu, fine)} / runtime ${range(own.beforeRuntimeCpu, fine)})`);
    report(`executions/s, the same after 760 KB results x40 and 30-call fan-outs x200`, `${range(own.after, rate)}  (CPU host ${range(own.afterHostCpu, fine)} / runtime ${range(own.afterRuntimeCpu, fine)})`);
    report(`cores kept busy by the burst (host + runtimes), of ${os.availableParallelism()}: before / after`, `${range(own.beforeCores, cores)} / ${range(own.afterCores, cores)}`);
  }
  if (targets.length === 2) {
    const [current, baseline] = targets.map((target) => figures.get(target.label));
    const ratio = (name) => (median(current[name]) / median(baseline[name])).toFixed(2);
    console.log(`\nthis build / ${targets[1].label}`);
    report("trivial p50", `${ratio("trivial")}x`);
    report("composition overhead p50", `${ratio("overhead")}x`);
    report("host CPU per trivial execution / per composition", `${ratio("trivialHostCpu")}x / ${ratio("compositionHostCpu")}x`);
    report("trivial with 200 tools listed: p50 / runtime CPU", `${ratio("wide")}x / ${ratio("wideRuntimeCpu")}x`);
    report("executions/s before / after the heavy section", `${ratio("before")}x / ${ratio("after")}x`);
  }
  if (!process.argv.includes("--no-details")) {
    const details = await targets[0].ask("details", { runs });
    console.log(`\n${targets[0].label} alone`);
    report("result of 10,000 rows (760 KB of JSON), p50", `${format(details.large)}  (host CPU ${fine(details.largeCpu.host)}, runtime CPU ${fine(details.largeCpu.runtime)})`);
    report("one sync call_tool (30 per run, trivial run subtracted), p50", `${fine(details.syncCall)}  (host CPU ${fine(details.syncCallCpu.host)}, runtime CPU ${fine(details.syncCallCpu.runtime)})`);
    report("one call in a call_tools fan-out of 30 (trivial subtracted), p50", `${fine(details.fanCall)}  (host CPU ${fine(details.fanCallCpu.host)}, runtime CPU ${fine(details.fanCallCpu.runtime)})`);
    report(`executions/s, ${burst} at once on a pool of 10`, rate(details.widePerSecond));
    report("while (true) {}: TIMEOUT after the deadline, median (max)", `${details.late.median} ms (${details.late.max} ms)`);
  }
} finally {
  await Promise.allSettled(targets.map((target) => target.ask("close")));
  rmSync(scratch, { recursive: true, force: true });
}
