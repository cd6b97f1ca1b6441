// The cost `web_search` adds to a search: executor.callTool("web_search") against a local server that
// answers in Brave Search's format (10 results), compared with the least any client does — one
// fetch of the same URL and a JSON.parse of its answer — in the same run, interleaved in rounds.
// The server runs in a child process, so this process's CPU per call is the client side only: the
// figure to trust on a shared machine (wall-clock medians follow the machine's load).
// Usage: npm run build && node bench/web-search.mjs [--rounds 20] [--calls 50]
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { createExecutor } from "../dist/index.js";
import { flag, median } from "./bench-utils.mjs";

const rounds = flag("rounds", 20);
const calls = flag("calls", 50);

const SERVER = `
import http from "node:http";
const results = Array.from({ length: 10 }, (_, index) => ({
  title: "Result " + index, url: "https://example.com/page/" + index,
  description: "A <strong>snippet</strong> of about two hundred characters for result " + index + ". ".repeat(1) + "x".repeat(150),
  page_age: "2024-04-24T12:00:00Z",
}));
const body = JSON.stringify({ type: "search", query: { original: "q" }, web: { type: "search", results } });
const server = http.createServer((request, response) => {
  request.resume();
  request.on("end", () => response.writeHead(200, { "content-type": "application/json" }).end(body));
});
server.listen(0, "127.0.0.1", () => console.log(server.address().port));
`;

const child = spawn(process.execPath, ["--input-type=module", "-e", SERVER], { stdio: ["ignore", "pipe", "inherit"] });
const port = await new Promise((resolve) => child.stdout.once("data", (data) => resolve(Number(String(data).trim()))));
const base = `http://127.0.0.1:${port}`;

const root = mkdtempSync(path.join(os.tmpdir(), "toolexec-bench-web-search-"));
writeFileSync(path.join(root, "tools.json"), JSON.stringify({ tools: [], webSearch: { provider: "brave", apiKey: "bench-key", url: base } }));
const executor = await createExecutor({ root, mcpConfig: false, watch: false, logDir: false });

const direct = async () => {
  const response = await fetch(`${base}/res/v1/web/search?q=node&count=10`, { headers: { accept: "application/json", "x-subscription-token": "bench-key" } });
  JSON.parse(await response.text());
};
const throughExecutor = async () => {
  const result = await executor.callTool("web_search", { query: "node" });
  if (!result.ok) throw new Error(result.error.message);
};

/** One round of `calls` sequential calls: wall ms and this process's CPU µs, per call. */
async function round(run) {
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let index = 0; index < calls; index++) await run();
  const wall = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return { wall: wall / calls, cpu: (used.user + used.system) / calls };
}

for (let index = 0; index < 3; index++) {
  await round(direct);
  await round(throughExecutor);
}
const samples = { direct: [], executor: [] };
for (let index = 0; index < rounds; index++) {
  samples.direct.push(await round(direct));
  samples.executor.push(await round(throughExecutor));
}
const summary = (list) => ({ wall: median(list.map((sample) => sample.wall)), cpu: median(list.map((sample) => sample.cpu)) });
const [fetchOnly, tool] = [summary(samples.direct), summary(samples.executor)];
console.log(`fetch + JSON.parse     : ${fetchOnly.wall.toFixed(3)} ms wall, ${fetchOnly.cpu.toFixed(0)} µs CPU per call`);
console.log(`callTool("web_search") : ${tool.wall.toFixed(3)} ms wall, ${tool.cpu.toFixed(0)} µs CPU per call`);
console.log(`ratio (medians of ${rounds} rounds × ${calls} calls): ${(tool.wall / fetchOnly.wall).toFixed(2)}× wall, ${(tool.cpu / fetchOnly.cpu).toFixed(2)}× CPU; +${(tool.cpu - fetchOnly.cpu).toFixed(0)} µs CPU per call`);

await executor.close();
child.kill();
rmSync(root, { recursive: true, force: true });
