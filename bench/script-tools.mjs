// Per-call overhead of executor.callTool on a Python and a shell echo tool, against spawning the
// same scripts directly with child_process (the real interpreter, no shims), interleaved in one run.
// Usage: npm run build && node bench/script-tools.mjs [--runs 60]
import { spawn } from "node:child_process";
import { execFileSync } from "node:child_process";
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { createExecutor } from "../dist/index.js";
import { flag, format, median, quantile } from "./bench-utils.mjs";

const runs = flag("runs", 60);
const root = mkdtempSync(path.join(os.tmpdir(), "toolexec-bench-"));
mkdirSync(path.join(root, "tools"));
writeFileSync(path.join(root, "tools", "echo.py"), "import json, sys\njson.dump(json.load(sys.stdin), sys.stdout)\n");
writeFileSync(path.join(root, "tools", "echo.sh"), "cat\n");
writeFileSync(path.join(root, "mcp.json"), JSON.stringify({ mcpServers: {} }));
const tool = (name, runtime, script) => ({ name, description: name, runtime, script, inputSchema: { type: "object" }, parallel: true });
writeFileSync(path.join(root, "tools.json"), JSON.stringify({ tools: [tool("echo_py", "python", "echo.py"), tool("echo_sh", "shell", "echo.sh")] }));

const python = execFileSync("python3", ["-c", "import sys; print(sys.executable)"], { cwd: root }).toString().trim();
const args = { message: "hello", numbers: [1, 2, 3] };

/** The baseline: spawn, write the JSON, read all of stdout, wait for exit. */
function direct(command, commandArgs) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, commandArgs, { cwd: root, stdio: ["pipe", "pipe", "pipe"] });
    const chunks = [];
    child.stdout.on("data", (chunk) => chunks.push(chunk));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve(JSON.parse(Buffer.concat(chunks).toString())) : reject(new Error(`exit ${code}`))));
    child.stdin.end(JSON.stringify(args));
  });
}

const executor = await createExecutor({ root, watch: false });
const cases = [
  { label: "python", direct: () => direct(python, [path.join(root, "tools", "echo.py")]), tool: "echo_py" },
  { label: "shell", direct: () => direct("bash", ["--noprofile", "--norc", path.join(root, "tools", "echo.sh")]), tool: "echo_sh" },
];
try {
  for (const item of cases) {
    // Warm-up: interpreter resolution, module caches, page cache.
    for (let index = 0; index < 5; index++) {
      await item.direct();
      await executor.callTool(item.tool, args);
    }
    const baseline = [];
    const through = [];
    // Host CPU per call is immune to other processes' load: it is what toolexec itself costs.
    const cpu = { direct: 0, executor: 0 };
    for (let index = 0; index < runs; index++) {
      // Alternate which goes first so drift on a noisy machine hits both sides alike.
      const order = index % 2 === 0 ? ["direct", "executor"] : ["executor", "direct"];
      for (const side of order) {
        const started = performance.now();
        const cpuBefore = process.cpuUsage();
        if (side === "direct") await item.direct();
        else {
          const result = await executor.callTool(item.tool, args);
          if (!result.ok) throw new Error(JSON.stringify(result.error));
        }
        const used = process.cpuUsage(cpuBefore);
        cpu[side] += used.user + used.system;
        (side === "direct" ? baseline : through).push(performance.now() - started);
      }
    }
    const base = median(baseline);
    const mine = median(through);
    console.log(
      `${item.label.padEnd(6)} direct spawn p50 ${format(base)} p90 ${format(quantile(baseline, 0.9))} | callTool p50 ${format(mine)} p90 ${format(quantile(through, 0.9))} | ratio ${(mine / base).toFixed(3)} | overhead ${format(mine - base)} | host CPU per call: direct ${(cpu.direct / runs / 1000).toFixed(2)} ms, callTool ${(cpu.executor / runs / 1000).toFixed(2)} ms  (${runs} runs each, interleaved)`,
    );
  }
} finally {
  await executor.close();
  rmSync(root, { recursive: true, force: true });
}
