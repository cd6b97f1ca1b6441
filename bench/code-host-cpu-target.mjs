// One build measured by bench/code-host-cpu.mjs: `node --trace-gc-nvp code-host-cpu-target.mjs <dist> code|pipeline <count>`.
// Warms up, prints MEASURING, runs `count` sequential trivial code runs on a pool of one (code) or
// calls of an in-process no-op tool (pipeline), then prints RESULT with its own CPU time.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [dist, mode, countText] = process.argv.slice(2);
const count = Number(countText);
const { createExecutor } = await import(pathToFileURL(path.join(dist, "index.js")).href);
const root = mkdtempSync(path.join(os.tmpdir(), "toolexec-bench-host-"));
mkdirSync(path.join(root, "tools"));
writeFileSync(path.join(root, "tools.json"), JSON.stringify({ tools: [] }));
writeFileSync(path.join(root, "mcp.json"), JSON.stringify({ mcpServers: {} }));
const noopPlugin = {
  name: "bench",
  async start() {
    return { listTools: () => [{ name: "noop", description: "Returns its arguments.", inputSchema: { type: "object" }, parallel: true }], callTool: async (call) => ({ ok: true, value: call.arguments }), close: async () => {} };
  },
};
const executor = await createExecutor({ root, watch: false, logDir: false, plugins: [noopPlugin], codeExecution: { enabled: mode === "code", poolSize: 1 } });
const once =
  mode === "code"
    ? async () => {
        const result = await executor.executeCode({ code: "1 + 1" });
        if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
      }
    : async () => {
        const result = await executor.callTool("noop", { n: 1 });
        if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
      };
for (let index = 0; index < Math.max(2000, count / 3); index++) await once();
console.log("MEASURING");
const before = process.cpuUsage();
for (let index = 0; index < count; index++) await once();
const used = process.cpuUsage(before);
console.log(`RESULT ${JSON.stringify({ count, cpuMs: (used.user + used.system) / 1000 })}`);
await executor.close();
rmSync(root, { recursive: true, force: true });
