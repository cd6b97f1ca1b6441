// The call pipeline's own cost: `callTool` on a host plugin's tool that answers at once (no process,
// no network), so what is measured is validation, scheduling, tracking, the envelope, events and —
// in the second block — the JSONL execution log. Host CPU per call is the figure to trust on a
// shared machine. Usage: npm run build && node bench/pipeline.mjs [--runs 50000]
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { createExecutor } from "../dist/index.js";
import { flag } from "./bench-utils.mjs";

const runs = flag("runs", 50_000);
const root = mkdtempSync(path.join(os.tmpdir(), "toolexec-bench-pipeline-"));
writeFileSync(path.join(root, "tools.json"), JSON.stringify({ tools: [] }));
const echo = { name: "echo", description: "Echo the arguments.", inputSchema: { type: "object", properties: { message: { type: "string" } } }, parallel: true };
const plugin = { name: "instant", async start() { return { listTools: () => [echo], callTool: async (call) => ({ ok: true, value: call.arguments }), close: async () => {} }; } };

for (const logDir of [false, ".toolexec/logs"]) {
  const executor = await createExecutor({ root, mcpConfig: false, watch: false, logDir, plugins: [plugin] });
  for (let index = 0; index < 20_000; index++) await executor.callTool("echo", { message: "hello" });
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let index = 0; index < runs; index++) await executor.callTool("echo", { message: "hello" });
  const wall = performance.now() - started;
  const used = process.cpuUsage(cpu);
  console.log(`${logDir === false ? "without the log" : "with the log   "}: ${((wall / runs) * 1000).toFixed(1)} µs per call wall, ${((used.user + used.system) / runs).toFixed(1)} µs host CPU per call (${runs} calls)`);
  await executor.close();
}
rmSync(root, { recursive: true, force: true });
