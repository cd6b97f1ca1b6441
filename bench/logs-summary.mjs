// `toolexec logs` summary over a generated 100 MB execution log. Target: ≤ 2 s.
// Baseline in the same run: reading the same file's lines without parsing them (the floor a
// streaming reader cannot beat). Also the whole CLI command, start-up included.
// Wall time depends on how busy the machine is (8 helpers share 2 cores here), so CPU time (user +
// system, of this process for the library and of the child for the CLI) is printed beside it.
// Usage: npm run build && node bench/logs-summary.mjs [--megabytes 100] [--runs 5]
import { mkdtempSync, rmSync, mkdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { openExecutionLog } from "../dist/logs.js";
import { writeExecutionLog } from "../scripts/generate-execution-log.mjs";
import { flag, format, median } from "./bench-utils.mjs";

/** CPU ms used so far by the children this process waited for (Linux: cutime + cstime of /proc/self/stat, in 10 ms ticks). */
const childrenCpuMs = () => {
  const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ");
  return (Number(fields[13]) + Number(fields[14])) * 10;
};
const cpuMs = (since) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};

const megabytes = flag("megabytes", 100);
const runs = flag("runs", 5);
const dir = mkdtempSync(path.join(os.tmpdir(), "toolexec-logs-bench-"));
const logDir = path.join(dir, "logs");
mkdirSync(logDir);
// The executable package.json "bin" names (what `npx toolexec` runs).
const repository = fileURLToPath(new URL("..", import.meta.url));
const cli = path.join(repository, JSON.parse(readFileSync(path.join(repository, "package.json"), "utf8")).bin.toolexec);
try {
  const generated = await writeExecutionLog(path.join(logDir, "executions.jsonl"), { bytes: megabytes * 1024 * 1024 });
  console.log(`log: ${(generated.bytes / 1024 / 1024).toFixed(1)} MB, ${generated.lines} lines`);
  const { forEachLine } = await import("../dist/logs/read-lines.js");
  const baseline = [];
  const summary = [];
  const summaryCpu = [];
  const command = [];
  const commandCpu = [];
  let result;
  for (let run = 0; run < runs; run++) {
    let started = performance.now();
    let count = 0;
    await forEachLine(path.join(logDir, "executions.jsonl"), () => count++);
    baseline.push(performance.now() - started);
    started = performance.now();
    const cpu = process.cpuUsage();
    result = await openExecutionLog(logDir).summary();
    summary.push(performance.now() - started);
    summaryCpu.push(cpuMs(cpu));
    started = performance.now();
    const childCpu = childrenCpuMs();
    execFileSync(process.execPath, [cli, "logs", "--log-dir", logDir, "--json"], { maxBuffer: 64 * 1024 * 1024 });
    command.push(performance.now() - started);
    commandCpu.push(childrenCpuMs() - childCpu);
  }
  const calls = result.tools.reduce((sum, tool) => sum + tool.calls, 0);
  console.log(`${calls} calls over ${result.tools.length} tools, ${runs} runs`);
  console.log(`read lines only (baseline): median ${format(median(baseline))}`);
  console.log(`summary (library):          median ${format(median(summary))}, CPU ${format(median(summaryCpu))}  (${(median(summary) / median(baseline)).toFixed(2)}× the baseline)`);
  console.log(`toolexec logs --json (CLI): median ${format(median(command))}, CPU ${format(median(commandCpu))}  target ≤ 2000 ms: wall ${median(command) <= 2000 ? "met" : "missed"}, CPU ${median(commandCpu) <= 2000 ? "met" : "missed"}`);
  console.log(`load average while measuring: ${(await import("node:os")).default.loadavg().map((load) => load.toFixed(1)).join(" ")}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
