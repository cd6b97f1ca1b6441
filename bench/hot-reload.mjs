// Time from writing tools.json to the change being live (config:reloaded, then a successful call of
// the new tool), with the real chokidar watcher. Target: live within 250 ms of the write.
// Usage: npm run build && node bench/hot-reload.mjs [--runs 20]
import { mkdtempSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { createExecutor } from "../dist/index.js";
import { flag, format, median, quantile } from "./bench-utils.mjs";

const runs = flag("runs", 20);
const root = mkdtempSync(path.join(os.tmpdir(), "toolexec-reload-bench-"));
mkdirSync(path.join(root, "tools"));
writeFileSync(path.join(root, "tools", "echo.sh"), "cat\n");
writeFileSync(path.join(root, "mcp.json"), JSON.stringify({ mcpServers: {} }));
const config = (count) => ({
  tools: Array.from({ length: count }, (_, index) => ({ name: `echo_${index}`, description: "echo", runtime: "shell", script: "echo.sh", inputSchema: { type: "object" } })),
});
writeFileSync(path.join(root, "tools.json"), JSON.stringify(config(1)));

const executor = await createExecutor({ root, logDir: false });
const toEvent = [];
const toCallable = [];
try {
  for (let index = 0; index < runs; index++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const reloaded = new Promise((resolve) => {
      const off = executor.on("config:reloaded", () => (off(), resolve()));
    });
    const written = performance.now();
    // Alternate plain writes and editors' atomic saves (temp file + rename).
    const text = JSON.stringify(config(index + 2));
    if (index % 2 === 0) writeFileSync(path.join(root, "tools.json"), text);
    else {
      writeFileSync(path.join(root, ".tools.json.swp"), text);
      renameSync(path.join(root, ".tools.json.swp"), path.join(root, "tools.json"));
    }
    await reloaded;
    toEvent.push(performance.now() - written);
    const result = await executor.callTool(`echo_${index + 1}`, { n: index });
    if (!result.ok) throw new Error(JSON.stringify(result.error));
    toCallable.push(performance.now() - written);
  }
  console.log(`write → config:reloaded  p50 ${format(median(toEvent))}  p90 ${format(quantile(toEvent, 0.9))}  max ${format(Math.max(...toEvent))}`);
  console.log(`write → new tool answered p50 ${format(median(toCallable))}  p90 ${format(quantile(toCallable, 0.9))}  max ${format(Math.max(...toCallable))}  (target ≤ 250 ms; debounce 50 ms; ${runs} edits)`);
} finally {
  await executor.close();
  rmSync(root, { recursive: true, force: true });
}
