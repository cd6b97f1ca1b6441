// The bundled example, end to end through the library: list the tools in tools.json, call each one,
// show how a failure looks, compose them in one sandboxed program (code mode, enabled by tools.json's
// `codeExecution`), and where the execution log went. Run with `npm run example`.
import { createExecutor } from "../dist/index.js";

const root = new URL("..", import.meta.url).pathname;
const executor = await createExecutor({ root, watch: false });
const show = (label, result) => {
  const body = result.ok ? JSON.stringify(result.value, null, 2) : `${result.error.code}: ${result.error.message}`;
  console.log(`\n▶ ${label}  (${result.ok ? "ok" : "failed"}, ${result.durationMs.toFixed(1)} ms)\n${body}`);
};

try {
  const tools = await executor.listTools();
  console.log(`toolexec example — ${tools.length} tools: ${tools.map((tool) => tool.name).join(", ")}`);

  show("csv_summary examples/sales.csv (units, revenue)", await executor.callTool("csv_summary", { path: "examples/sales.csv", columns: ["region", "units", "revenue"] }));
  show("unit_convert 26.2 mi → km", await executor.callTool("unit_convert", { value: 26.2, from: "mi", to: "km", precision: 2 }));
  show("file_stats examples/sales.csv", await executor.callTool("file_stats", { path: "examples/sales.csv" }));

  // Three independent calls at once: parallel tools overlap, the pipeline keeps each result apart.
  const batch = await Promise.all([
    executor.callTool("unit_convert", { value: 0, from: "C", to: "F" }),
    executor.callTool("unit_convert", { value: 1, from: "GiB", to: "MB", precision: 1 }),
    executor.callTool("unit_convert", { value: 1, from: "lb", to: "g", precision: 1 }),
  ]);
  console.log(`\n▶ three conversions in parallel: ${batch.map((result) => (result.ok ? result.value.text : result.error.code)).join("; ")}`);

  show("a failing call (kilometres to kilograms)", await executor.callTool("unit_convert", { value: 1, from: "km", to: "kg" }));
  show("an invalid call (value is not a number)", await executor.callTool("unit_convert", { value: "ten", from: "km", to: "mi" }));
  // Code mode: one program composes three tools and returns only what is needed; each call still goes
  // through the same pipeline (validation, timeouts, logging). More in docs/code-execution.md.
  const code = await executor.executeCode({
    code: [
      "const stats = await tools.local.file_stats({ path: input.path });",
      "const [summary, size] = await Promise.all([",
      "  tools.local.csv_summary({ path: input.path, columns: ['revenue'] }),",
      "  tools.local.unit_convert({ value: stats.bytes, from: 'B', to: 'KiB', precision: 2 }),",
      "]);",
      "console.log(`summarized ${summary.rows} rows`);",
      "return { rows: summary.rows, revenue: summary.columns[0].sum, size: size.text };",
    ].join("\n"),
    input: { path: "examples/sales.csv" },
  });
  console.log(`\n▶ code mode: file_stats, then csv_summary and unit_convert together  (${code.ok ? "ok" : "failed"}, ${code.durationMs.toFixed(1)} ms)`);
  console.log(code.ok ? JSON.stringify(code.value, null, 2) : `${code.error.code}: ${code.error.message}`);
  if (code.logs.length > 0) console.log(`logs: ${code.logs.join(" | ")}`);
  for (const call of code.toolCalls) console.log(`  ${call.server}.${call.tool}  ${call.durationMs.toFixed(1)} ms  ${call.ok ? "ok" : call.errorCode}`);

  console.log(`\nEvery call above is one JSON line in ${root}.toolexec/logs/executions.jsonl`);
} finally {
  await executor.close();
}
