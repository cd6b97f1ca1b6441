// executor.callTool on a Python echo function through the warm worker pool, against (a) the same
// echo as a script tool (a python3 process per call) and (b) a bare persistent Python loop reading
// JSON lines from a pipe (the floor for any warm design), interleaved in one run. Also the cold
// path: createExecutor (spawns a worker, imports the module, reads its schemas) and its first call.
// Usage: npm run build && node bench/python-functions.mjs [--runs 2000] [--script-runs 40]
import { spawn } from "node:child_process";
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { createInterface } from "node:readline";
import { createExecutor } from "../dist/index.js";
import { spawnPythonWorker } from "../dist/plugins/python/python-worker.js";
import { flag, format, quantile } from "./bench-utils.mjs";

const runs = flag("runs", 2000);
const scriptRuns = flag("script-runs", 40);
const root = mkdtempSync(path.join(os.tmpdir(), "toolexec-bench-"));
mkdirSync(path.join(root, "tools"));
writeFileSync(path.join(root, "tools", "echo_tools.py"), "from typing import Any\n\ndef echo(message: str, numbers: list[int]) -> dict[str, Any]:\n    \"\"\"Return the arguments.\"\"\"\n    return {\"message\": message, \"numbers\": numbers}\n");
writeFileSync(path.join(root, "tools", "echo.py"), "import json, sys\njson.dump(json.load(sys.stdin), sys.stdout)\n");
writeFileSync(path.join(root, "mcp.json"), JSON.stringify({ mcpServers: {} }));
writeFileSync(path.join(root, "tools.json"), JSON.stringify({
  tools: [
    { name: "echo_function", function: "echo_tools.py:echo" },
    { name: "echo_script", description: "echo", runtime: "python", script: "echo.py", inputSchema: { type: "object" } },
  ],
}));
const args = { message: "hello", numbers: [1, 2, 3] };

// (b) the floor: one python3 process, one JSON line in, one JSON line out.
const bare = spawn("python3", ["-c", "import json, sys\nfor line in sys.stdin:\n    sys.stdout.write(json.dumps(json.loads(line)) + '\\n')\n    sys.stdout.flush()\n"], { stdio: ["pipe", "pipe", "inherit"] });
const lines = createInterface({ input: bare.stdout });
const waiting = [];
lines.on("line", (line) => waiting.shift()(JSON.parse(line)));
const bareCall = () => new Promise((resolve) => {
  waiting.push(resolve);
  bare.stdin.write(`${JSON.stringify(args)}\n`);
});

// The worker's own cold path: spawn python3, import the module, first call (what a retired or
// killed worker costs the next call).
const coldWorkerStarted = performance.now();
const coldWorker = spawnPythonWorker({ interpreter: "python3", cwd: root, env: { PATH: process.env.PATH ?? "" } });
await coldWorker.ready;
const coldReadyMs = performance.now() - coldWorkerStarted;
await coldWorker.request({ op: "call", module: path.join(root, "tools", "echo_tools.py"), function: "echo", arguments: args });
const coldWorkerMs = performance.now() - coldWorkerStarted;
coldWorker.kill();

// (c) the plugin's own transport without the executor's pipeline: one worker, framed JSON on fd 3/4.
const worker = spawnPythonWorker({ interpreter: "python3", cwd: root, env: { PATH: process.env.PATH ?? "" } });
await worker.ready;
const module = path.join(root, "tools", "echo_tools.py");
const workerCall = () => worker.request({ op: "call", module, function: "echo", arguments: args });

const coldStarted = performance.now();
// No execution log: the figure is the call path, not disk writes (the script bench keeps the log on).
const executor = await createExecutor({ root, watch: false, logDir: false });
const createMs = performance.now() - coldStarted;
const firstStarted = performance.now();
const first = await executor.callTool("echo_function", args);
const firstCallMs = performance.now() - firstStarted;
if (!first.ok) throw new Error(JSON.stringify(first.error));

async function measure(call, count) {
  const times = [];
  for (let index = 0; index < count; index++) {
    const started = performance.now();
    await call();
    times.push(performance.now() - started);
  }
  return times;
}

try {
  for (let index = 0; index < 200; index++) {
    await executor.callTool("echo_function", args);
    await bareCall();
    await workerCall();
  }
  // Interleave in blocks so drift on a shared machine hits both sides alike.
  const warm = [];
  const floor = [];
  const transport = [];
  for (let block = 0; block < 20; block++) {
    warm.push(...(await measure(() => executor.callTool("echo_function", args), runs / 20)));
    floor.push(...(await measure(bareCall, runs / 20)));
    transport.push(...(await measure(workerCall, runs / 20)));
  }
  const script = await measure(() => executor.callTool("echo_script", args), scriptRuns);
  const p50 = (values) => quantile(values, 0.5);
  const row = (label, values) => console.log(`${label.padEnd(44)} p50 ${format(p50(values)).padStart(10)}  p90 ${format(quantile(values, 0.9)).padStart(10)}  p99 ${format(quantile(values, 0.99)).padStart(10)}  (n=${values.length})`);
  console.log(`python-functions bench — node ${process.version}, ${os.cpus().length} cores, load ${os.loadavg().map((load) => load.toFixed(2)).join(" ")}`);
  row("warm pool: callTool(echo_function)", warm);
  row("(a) script tool: callTool(echo_script)", script);
  row("(b) bare persistent python loop (JSON lines)", floor);
  row("(c) worker transport alone (no pipeline)", transport);
  console.log(`cold worker: spawn to ready ${format(coldReadyMs)}, spawn to first answer (import included) ${format(coldWorkerMs)}`);
  console.log(`cold: createExecutor ${format(createMs)} (worker spawn + import + schemas), first call ${format(firstCallMs)}, both ${format(createMs + firstCallMs)}`);
  const speedup = p50(script) / p50(warm);
  const ratio = p50(warm) / p50(floor);
  console.log(`warm vs (a): ${speedup.toFixed(0)}x faster (target >= 100x); warm vs (b): ${ratio.toFixed(2)}x (target <= 1.3x); (c) vs (b): ${(p50(transport) / p50(floor)).toFixed(2)}x; warm p50 target <= 0.5 ms; cold first call target <= 150 ms`);
} finally {
  await executor.close();
  bare.kill();
  worker.kill();
  rmSync(root, { recursive: true, force: true });
}
