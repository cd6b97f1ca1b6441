// From POST /api/tools of a new tool with its script to the first successful call of that tool by
// an MCP client over the same served port (the SDK's real Client). Baseline measured in the same
// run: a call of a tool that already exists, by the same client. Target: < 300 ms.
// Usage: npm run build && node bench/registry-first-call.mjs [--runs 30]
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createExecutor } from "../dist/index.js";
import { serveHttp } from "../dist/serve.js";
import { flag, format, median, quantile } from "./bench-utils.mjs";

const runs = flag("runs", 30);
const apiKey = "bench-key";
const root = mkdtempSync(path.join(os.tmpdir(), "toolexec-registry-bench-"));
mkdirSync(path.join(root, "tools"));
writeFileSync(path.join(root, "tools", "existing.sh"), "printf '{\"ok\": true}'\n");
writeFileSync(path.join(root, "mcp.json"), JSON.stringify({ mcpServers: {} }));
const entry = (name, script) => ({ name, description: `Bench tool ${name}`, runtime: "shell", script, inputSchema: { type: "object" } });
writeFileSync(path.join(root, "tools.json"), `${JSON.stringify({ tools: [entry("existing", "existing.sh")] }, null, 2)}\n`);

const executor = await createExecutor({ root, logDir: false, logger: { debug() {}, info() {}, warn() {}, error() {} } });
const serving = await serveHttp(executor, { apiKey, onAudit() {} });
const client = new Client({ name: "registry-bench", version: "1.0.0" });
await client.connect(new StreamableHTTPClientTransport(new URL(serving.url)));
const origin = new URL(serving.url).origin;

const callOk = async (name) => {
  const result = await client.callTool({ name, arguments: {} });
  if (result.isError) throw new Error(`${name}: ${JSON.stringify(result.content)}`);
};

const postToFirstCall = [];
const postAlone = [];
const existingCall = [];
let registrationCpuMs = 0;
try {
  await callOk("existing");
  for (let index = 0; index < runs; index++) {
    const started = performance.now();
    await callOk("existing");
    existingCall.push(performance.now() - started);

    const name = `fresh_${index}`;
    const cpu = process.cpuUsage();
    const posted = performance.now();
    const response = await fetch(`${origin}/api/tools`, {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ entry: entry(name, `${name}.sh`), script: `printf '{"run": ${index}}'\n` }),
    });
    if (response.status !== 201) throw new Error(`POST answered ${response.status}: ${await response.text()}`);
    postAlone.push(performance.now() - posted);
    await callOk(name);
    postToFirstCall.push(performance.now() - posted);
    const used = process.cpuUsage(cpu);
    registrationCpuMs += (used.user + used.system) / 1000;
  }
  const line = (label, samples) => `${label.padEnd(34)} p50 ${format(median(samples))}  p90 ${format(quantile(samples, 0.9))}  max ${format(Math.max(...samples))}`;
  console.log(line("call of an existing tool (baseline)", existingCall));
  console.log(line("POST /api/tools (live on response)", postAlone));
  console.log(line("POST → first successful call", postToFirstCall));
  console.log(`host CPU per POST + first call: ${format(registrationCpuMs / runs)} (this process: server, executor, client; the script's own process not counted)`);
  console.log(`ratio POST → first call / baseline call: ${(median(postToFirstCall) / median(existingCall)).toFixed(1)}×  (target < 300 ms; ${runs} tools, the file growing to ${runs + 1} entries)`);
} finally {
  await client.close();
  await serving.close();
  await executor.close();
  rmSync(root, { recursive: true, force: true });
}
