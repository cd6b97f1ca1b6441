// One toolexec build measured by bench/code-execution.mjs: forked with the path of a dist/ folder,
// it makes an executor with code execution on and an in-process no-op tool, then answers the
// driver's commands one at a time ({ id, command, ...parameters } → { id, figures }). Each build
// runs in its own process, so the builds never share a heap, a JIT or a pool, and the driver can
// interleave their rounds.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { median, quantile, roundTrips } from "./bench-utils.mjs";

const dist = path.resolve(process.argv[2] ?? new URL("../dist", import.meta.url).pathname);
const burstSize = Number(process.argv[3] ?? 4000);
const { createExecutor } = await import(pathToFileURL(path.join(dist, "index.js")).href);

const root = mkdtempSync(path.join(os.tmpdir(), "toolexec-bench-code-"));
mkdirSync(path.join(root, "tools"));
writeFileSync(path.join(root, "tools.json"), JSON.stringify({ tools: [] }));
writeFileSync(path.join(root, "mcp.json"), JSON.stringify({ mcpServers: {} }));

/**
 * An in-process tool with no cost of its own beyond the pipeline, so overhead is all that is left;
 * with `extra`, that many more such tools, for a catalog of a realistic size.
 */
const noopPlugin = (extra = 0) => ({
  name: "bench",
  async start() {
    const names = ["noop", ...Array.from({ length: extra }, (_, index) => `noop_${index}`)];
    return {
      listTools: () => names.map((name) => ({ name, description: "Returns its arguments.", inputSchema: { type: "object" }, parallel: true })),
      callTool: async (call) => ({ ok: true, value: call.arguments }),
      close: async () => {},
    };
  },
});

const makeExecutor = (poolSize, extraTools = 0) =>
  createExecutor({ root, watch: false, logDir: false, plugins: [noopPlugin(extraTools)], maxConcurrency: 64, codeExecution: { enabled: true, ...(poolSize === undefined ? {} : { poolSize }), maxQueue: burstSize } });
const executor = await makeExecutor(undefined);
/** @type {Awaited<ReturnType<typeof makeExecutor>> | undefined} */
let wideCatalog;

const ticks = (stat, first) => ((Number(stat[first]) + Number(stat[first + 1])) * 1000) / 100;

/**
 * CPU used so far by this process and by its code runtimes (Linux: /proc; NaN elsewhere), in ms:
 * the runtimes alive now, plus those that exited (a runtime recycled in between still counts).
 */
function cpuNow() {
  const host = process.cpuUsage();
  let runtimes = 0;
  try {
    runtimes += ticks(readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" "), 13);
    const children = readFileSync(`/proc/${process.pid}/task/${process.pid}/children`, "utf8").trim().split(" ").filter(Boolean);
    for (const pid of children) {
      const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
      runtimes += ticks(fields, 11);
    }
  } catch {
    runtimes = Number.NaN;
  }
  return { host: (host.user + host.system) / 1000, runtimes };
}
const cpuPer = (before, after, count) => ({ host: (after.host - before.host) / count, runtime: (after.runtimes - before.runtimes) / count });

const run = async (code, target = executor) => {
  const result = await target.executeCode({ code });
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result;
};

const COMPOSITION = "const a = call_tool('local', 'noop', { n: 1 });\nconst b = call_tool('local', 'noop', { n: 2 });\nconst c = call_tool('local', 'noop', { n: 3 });\n[a.value.n, b.value.n, c.value.n]";
const LARGE_RESULT = "Array.from({ length: 10000 }, (_, i) => ({ id: i, name: `row ${i}`, price: i * 1.5, tags: ['a', 'b'], 'odd key': true }))";
const SUB_CALLS = 30;
const SYNC_CALLS = `${Array.from({ length: SUB_CALLS }, (_, index) => `call_tool('local', 'noop', { n: ${index} });`).join("\n")}\n0`;
const FAN_OUT = `(await call_tools(Array.from({ length: ${SUB_CALLS} }, (_, n) => ({ server: 'local', tool: 'noop', args: { n } })))).length`;

/** Bursts until every runtime of the pool has started: a start (~0.3 s of CPU) inside the measured burst is not throughput. */
async function warmPool(target) {
  for (let round = 0; round < 3; round++) await Promise.all(Array.from({ length: 200 }, () => target.executeCode({ code: "1 + 1" })));
}

/** Executions per second with `burstSize` runs of `1 + 1` submitted at once, and the CPU they took. */
async function burst(target) {
  const before = cpuNow();
  const started = performance.now();
  const results = await Promise.all(Array.from({ length: burstSize }, () => target.executeCode({ code: "1 + 1" })));
  const seconds = (performance.now() - started) / 1000;
  return { perSecond: burstSize / seconds, failed: results.filter((result) => !result.ok).length, cpu: cpuPer(before, cpuNow(), burstSize) };
}

const commands = {
  /** Warm-up long enough for the JIT to reach steady state (fewer runs measure the optimizer, not us). */
  async warm() {
    for (let index = 0; index < 1500; index++) await run("1 + 1");
    for (let index = 0; index < 300; index++) await run(COMPOSITION);
    await warmPool(executor);
    return {};
  },
  async trivial({ runs }) {
    const before = cpuNow();
    const times = await roundTrips(() => run("1 + 1"), runs);
    return { p50: median(times), p99: quantile(times, 0.99), cpu: cpuPer(before, cpuNow(), runs) };
  },
  /** The three calls straight through executor.callTool, then the same three from code. */
  async composition({ runs }) {
    const direct = await roundTrips(async () => {
      for (const n of [1, 2, 3]) await executor.callTool("noop", { n });
    }, runs);
    const before = cpuNow();
    const composed = await roundTrips(() => run(COMPOSITION), runs);
    return { direct: median(direct), composed: median(composed), overhead: median(composed) - median(direct), cpu: cpuPer(before, cpuNow(), runs) };
  },
  async throughput() {
    await warmPool(executor);
    return burst(executor);
  },
  /** Trivial code with 200 tools listed to code (one executor kept for the rounds): what the catalog's size costs a run that calls none. */
  async wideCatalog({ runs }) {
    wideCatalog ??= await makeExecutor(undefined, 199);
    for (let index = 0; index < 300; index++) await run("1 + 1", wideCatalog);
    const before = cpuNow();
    const times = await roundTrips(() => run("1 + 1", wideCatalog), runs);
    return { p50: median(times), cpu: cpuPer(before, cpuNow(), runs) };
  },
  /** The section that leaves state behind: 760 KB results ×40, then 30-call fan-outs ×200. */
  async heavy() {
    for (let index = 0; index < 40; index++) await run(LARGE_RESULT);
    for (let index = 0; index < 200; index++) await run(FAN_OUT);
    return {};
  },
  /** Figures of this build alone: a large result, one sync call_tool, one call of a fan-out, the pool of 10, TIMEOUT's lateness. */
  async details({ runs }) {
    let before = cpuNow();
    const large = await roundTrips(() => run(LARGE_RESULT), 100);
    const largeCpu = cpuPer(before, cpuNow(), 100);
    const subRuns = Math.max(50, Math.round(runs / 4));
    before = cpuNow();
    const trivialAgain = await roundTrips(() => run("1 + 1"), subRuns);
    const middle = cpuNow();
    const many = await roundTrips(() => run(SYNC_CALLS), subRuns);
    const after = cpuNow();
    const perCall = (key, end, start) => ((end[key] - start[key]) - (middle[key] - before[key])) / subRuns / SUB_CALLS;
    const fanBefore = cpuNow();
    const fanned = await roundTrips(() => run(FAN_OUT), subRuns);
    const fanAfter = cpuNow();
    const wide = await makeExecutor(10);
    let widePerSecond;
    try {
      await warmPool(wide);
      widePerSecond = (await burst(wide)).perSecond;
    } finally {
      await wide.close();
    }
    const late = [];
    for (let index = 0; index < 5; index++) {
      await run("0");
      const begun = Date.now();
      const result = await executor.executeCode({ code: "while (true) {}", options: { timeout_ms: 200 } });
      if (result.ok || result.error.code !== "TIMEOUT") throw new Error("expected TIMEOUT");
      late.push(Date.now() - begun - 200);
    }
    return {
      large: median(large),
      largeCpu,
      syncCall: (median(many) - median(trivialAgain)) / SUB_CALLS,
      syncCallCpu: { host: perCall("host", after, middle), runtime: perCall("runtimes", after, middle) },
      fanCall: (median(fanned) - median(trivialAgain)) / SUB_CALLS,
      fanCallCpu: { host: perCall("host", fanAfter, fanBefore), runtime: perCall("runtimes", fanAfter, fanBefore) },
      widePerSecond,
      late: { median: median(late), max: Math.max(...late) },
    };
  },
};

process.on("message", async ({ id, command, ...parameters }) => {
  if (command === "close") {
    await executor.close();
    await wideCatalog?.close();
    rmSync(root, { recursive: true, force: true });
    process.send({ id, figures: {} }, () => process.exit(0));
    return;
  }
  try {
    process.send({ id, figures: await commands[command](parameters) });
  } catch (error) {
    process.send({ id, error: String(error?.stack ?? error) });
  }
});
process.send({ ready: true });
