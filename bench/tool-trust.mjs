// Tool trust's cost on a registry rebuild (which follows every list_changed, connection and reload):
// admitting a server's N tools under "pin" against "trust" (the baseline) measured in the same run —
// at first sight of a tool list (new tool objects, as after list_changed: fingerprints computed,
// canonical JSON + SHA-256 per tool) and on later rebuilds (fingerprints cached per tool object).
// Host CPU per rebuild, medians over --runs rebuilds, beside the cost of the listing itself.
// Usage: npm run build && node bench/tool-trust.mjs [--tools 100,1000] [--runs 50]
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createToolTrust } from "../dist/plugins/mcp/trust/tool-trust.js";
import { toServerTools } from "../dist/plugins/mcp/tool-definitions.js";
import { flag, listFlag, median } from "./bench-utils.mjs";

const runs = flag("runs", 50);
const sizes = listFlag("tools", [100, 1000]);
const quiet = { debug() {}, info() {}, warn() {}, error() {} };
const cpuMs = (since) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};

/** N tools shaped like a real server's: a sentence of description and a few typed parameters. */
function listed(count) {
  const tools = Array.from({ length: count }, (_, index) => ({
    name: `tool_${index}`,
    description: `Do thing number ${index} to the given record and return what changed, as JSON.`,
    inputSchema: { type: "object", properties: { id: { type: "string", description: "The record" }, limit: { type: "integer", minimum: 1 }, tags: { type: "array", items: { type: "string" } } }, required: ["id"] },
    annotations: { readOnlyHint: index % 2 === 0 },
  }));
  return toServerTools("bench", tools, { taken: new Set(), warn() {} });
}

const entry = (trust) => ({ name: "bench", trust, excludeTools: [] });

for (const count of sizes) {
  const results = {};
  // What a list change already costs before trust: turning the listing into executor tools.
  const listing = [];
  for (let run = 0; run < runs; run++) {
    const since = process.cpuUsage();
    listed(count);
    listing.push(cpuMs(since));
  }
  console.log(`${String(count).padStart(5)} tools, listing itself   : ${median(listing).toFixed(3)} ms CPU per list change (median of ${runs}; toServerTools, for scale)`);
  for (const [label, trust, fresh] of [["trust, first sight", "trust", true], ["pin, first sight", "pin", true], ["trust, rebuild", "trust", false], ["pin, rebuild", "pin", false]]) {
    const root = mkdtempSync(path.join(os.tmpdir(), "toolexec-bench-trust-"));
    const samples = [];
    let tools = listed(count);
    const view = () => ({ entry: entry(trust), source: "config", tools, connected: true });
    const trustState = createToolTrust();
    await trustState.start({ root, logger: quiet, emit() {}, servers: () => [view()] });
    trustState.admit([view()]);
    await trustState.flush();
    for (let run = 0; run < runs; run++) {
      // First sight: new tool objects (as after a list_changed), so nothing is cached.
      if (fresh) tools = listed(count);
      const since = process.cpuUsage();
      trustState.admit([view()]);
      samples.push(cpuMs(since));
    }
    trustState.close();
    await trustState.flush();
    rmSync(root, { recursive: true, force: true });
    results[label] = median(samples);
  }
  for (const [label, ms] of Object.entries(results)) {
    const baseline = results[label.replace("pin", "trust")];
    console.log(`${String(count).padStart(5)} tools, ${label.padEnd(18)}: ${ms.toFixed(3)} ms CPU per rebuild (median of ${runs})${label.startsWith("pin") ? `, ${(ms / baseline).toFixed(2)}× "trust"` : ""}`);
  }
}
