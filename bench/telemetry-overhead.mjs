// What toolexec's OpenTelemetry instrumentation costs per call, in one run, interleaved round-robin
// (the starting variant rotating every round, so noise hits all alike):
//   baseline   with --baseline <dist>: another build (e.g. main's, before instrumentation), no SDK;
//   off        this build, no tracer or meter provider registered: the default for a host without an SDK;
//   sdk        a NodeTracerProvider with a BatchSpanProcessor and an exporter that drops the spans
//              (the SDK's own work, not the network), plus the in-process metrics registry serve uses;
// over two calls: a host plugin's in-memory tool (the pipeline alone, the most sensitive case) and
// server-everything's `echo` over stdio (an MCP call: CLIENT span, `_meta` injection, client histogram).
// The tracer provider is registered only around the `sdk` variant's calls (outside the timed region);
// the `sdk` executor was created while the registry was the global meter provider, so its metrics record.
// Printed: p50 and mean per variant (µs) and the overhead against the first variant (µs and ratio).
// Usage: npm run build && node bench/telemetry-overhead.mjs [--runs 2000] [--warmup 2000] [--baseline /path/to/other/dist]
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { metrics, trace } from "@opentelemetry/api";
import { BatchSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import { createExecutor } from "../dist/index.js";
import { createMetricsRegistry } from "../dist/serve.js";
import { flag, mean, median } from "./bench-utils.mjs";
import { EVERYTHING_PATH } from "./start-everything.mjs";

const runs = flag("runs", 2000);
const warmup = flag("warmup", 2000);
const baselineIndex = process.argv.indexOf("--baseline");
const baselineDist = baselineIndex >= 0 ? path.resolve(process.argv[baselineIndex + 1]) : undefined;
const micro = (ms) => `${(ms * 1000).toFixed(1)} µs`;
const silent = { debug() {}, info() {}, warn: (text) => console.error(text), error: (text) => console.error(text) };

/** An exporter that accepts every batch and keeps nothing: the SDK's cost without the network's. */
const droppingExporter = { export: (_spans, done) => done({ code: 0 }), shutdown: async () => {}, forceFlush: async () => {} };
const provider = new NodeTracerProvider({ spanProcessors: [new BatchSpanProcessor(droppingExporter)] });
// Registered once for its context manager and propagator; the tracer provider itself is toggled per call.
provider.register();
trace.disable();

const plugin = {
  name: "bench-memory",
  async start() {
    return {
      listTools: () => [{ name: "memory_echo", description: "Echo", inputSchema: { type: "object" }, parallel: true }],
      callTool: async (call) => ({ ok: true, value: call.arguments }),
      close: async () => {},
    };
  },
};

function project() {
  const root = mkdtempSync(path.join(os.tmpdir(), "toolexec-telemetry-bench-"));
  writeFileSync(path.join(root, "tools.json"), JSON.stringify({ tools: [] }));
  writeFileSync(path.join(root, "mcp.json"), JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING_PATH, "stdio"] } } }));
  return root;
}

const root = project();
const options = { root, watch: false, logDir: false, logger: silent, plugins: [plugin] };
const off = await createExecutor(options);
const registry = createMetricsRegistry();
metrics.setGlobalMeterProvider(registry.meterProvider);
const sdk = await createExecutor(options);
metrics.disable();

const baseline = baselineDist ? await (await import(path.join(baselineDist, "index.js"))).createExecutor(options) : undefined;

const variants = [
  ...(baseline ? [{ label: "baseline", executor: baseline, before: () => trace.disable() }] : []),
  { label: "off", executor: off, before: () => trace.disable() },
  { label: "sdk", executor: sdk, before: () => trace.setGlobalTracerProvider(provider) },
];
const calls = [
  { label: "in-memory tool", name: "memory_echo", args: { text: "hello" } },
  { label: "MCP stdio echo", name: "everything__echo", args: { message: "hello" } },
];

for (const call of calls) {
  const times = new Map(variants.map((variant) => [variant.label, []]));
  for (let round = 0; round < warmup + runs; round++) {
    for (let index = 0; index < variants.length; index++) {
      const variant = variants[(round + index) % variants.length];
      variant.before();
      const started = performance.now();
      const result = await variant.executor.callTool(call.name, call.args);
      const elapsed = performance.now() - started;
      if (!result.ok) throw new Error(`${variant.label}: ${result.error.code} ${result.error.message}`);
      if (round >= warmup) times.get(variant.label).push(elapsed);
    }
  }
  trace.disable();
  const reference = times.get(variants[0].label);
  console.log(`\n${call.label} (${runs} calls per variant, ${warmup} warm-up rounds)`);
  for (const variant of variants) {
    const values = times.get(variant.label);
    const p50 = median(values);
    const overhead = variant === variants[0] ? "" : `  ${micro(p50 - median(reference))} p50 (×${(p50 / median(reference)).toFixed(3)}), ${micro(mean(values) - mean(reference))} mean against ${variants[0].label}`;
    console.log(`  ${variant.label.padEnd(8)} p50 ${micro(p50)}  mean ${micro(mean(values))}${overhead}`);
  }
}

await Promise.all([off.close(), sdk.close(), baseline?.close()]);
await provider.shutdown();
rmSync(root, { recursive: true, force: true });
