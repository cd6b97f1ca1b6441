// What the result budget costs per call, interleaved in one run so noise hits every case alike: a
// small value and a structured value under the budget through `callTool` unbounded (the baseline)
// and bounded (`{ bounded: true }`, as the LLM adapters and serve call), then a 3 MB text and 20,000
// rows over it (a cut and a store put). Host plugin tools answer at once, so only toolexec is measured.
// Prints medians in µs and the bounded/unbounded ratio. Usage: npm run build && node bench/result-budget.mjs [--runs 20000]
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { createExecutor } from "../dist/index.js";
import { flag, median } from "./bench-utils.mjs";

const runs = flag("runs", 20_000);
const root = mkdtempSync(path.join(os.tmpdir(), "toolexec-bench-results-"));
writeFileSync(path.join(root, "tools.json"), JSON.stringify({ tools: [] }));
const values = {
  small: "hello",
  rows: Array.from({ length: 100 }, (_, id) => ({ id, name: `row ${id}` })),
  huge_text: "line of text\n".repeat(230_000),
  huge_rows: Array.from({ length: 20_000 }, (_, id) => ({ id, name: `row ${id}`, note: "quoted \" text" })),
};
const tools = Object.keys(values).map((name) => ({ name, description: name, inputSchema: { type: "object" }, parallel: true }));
const plugin = { name: "fixed", async start() { return { listTools: () => tools, callTool: async (call) => ({ ok: true, value: values[call.name] }), close: async () => {} }; } };
const executor = await createExecutor({ root, mcpConfig: false, watch: false, logDir: false, plugins: [plugin], results: { store: { maxBytes: 64 * 1024 * 1024 } } });

async function time(name, bounded) {
  const started = performance.now();
  await executor.callTool(name, {}, bounded ? { bounded: true } : {});
  return (performance.now() - started) * 1000;
}

const cases = [["small", false], ["small", true], ["rows", false], ["rows", true]];
const samples = new Map(cases.map((entry) => [entry.join(), []]));
for (let round = 0; round < runs + 2_000; round++) {
  for (let index = 0; index < cases.length; index++) {
    const [name, bounded] = cases[(index + round) % cases.length];
    const micros = await time(name, bounded);
    if (round >= 2_000) samples.get(`${name},${bounded}`).push(micros);
  }
}
for (const name of ["small", "rows"]) {
  const plain = median(samples.get(`${name},false`));
  const bounded = median(samples.get(`${name},true`));
  console.log(`${name.padEnd(10)} unbounded ${plain.toFixed(1)} µs   bounded ${bounded.toFixed(1)} µs   ratio ${(bounded / plain).toFixed(3)}`);
}
for (const name of ["huge_text", "huge_rows"]) {
  const taken = [];
  for (let index = 0; index < 40; index++) taken.push(await time(name, true));
  console.log(`${name.padEnd(10)} bounded (cut + store): median ${(median(taken) / 1000).toFixed(2)} ms over 40 calls`);
}
await executor.close();
rmSync(root, { recursive: true, force: true });
