#!/usr/bin/env node
// The tool-search ranker for the gold-set harness (`eval.mjs --cmd`): registers the catalog in
// TOOL_SEARCH_CATALOG through the public API — a host plugin serving its definitions, no tools.json,
// no mcp.json — then answers one JSON line per query with `executor.searchTools`. Build first.
//
//   node /path/to/eval.mjs --catalog catalog.json --queries queries.json --cmd "node bench/tool-search-ranker.mjs"
//
// `--lexical` turns the semantic stage off (`toolSearch.embeddings: false`), to measure what it adds;
// `--model <folder>` ranks with a sentence model (`toolSearch.model`, e.g. .toolexec/models/all-minilm-l6-v2-int8).
import { readFileSync } from "node:fs";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { createExecutor } from "../dist/index.js";

const catalogPath = process.env.TOOL_SEARCH_CATALOG;
if (!catalogPath) {
  console.error("TOOL_SEARCH_CATALOG is not set");
  process.exit(2);
}
const parsed = JSON.parse(readFileSync(catalogPath, "utf8"));
const catalog = Array.isArray(parsed) ? parsed : parsed.tools;

/** Serves the catalog's definitions as they are; calls are never made. */
const catalogPlugin = {
  name: "catalog",
  async start() {
    return {
      listTools: () => catalog.map((tool) => ({ name: tool.name, description: tool.description ?? "", inputSchema: tool.inputSchema ?? { type: "object" }, ...(tool.annotations ? { annotations: tool.annotations } : {}) })),
      callTool: async () => ({ ok: false, error: { code: "TOOL_FAILED", message: "catalog tools are for search only" } }),
      close: async () => {},
    };
  },
};

function toolSearchOption() {
  if (process.argv.includes("--lexical")) return { toolSearch: { embeddings: false } };
  const at = process.argv.indexOf("--model");
  return at === -1 ? {} : { toolSearch: { model: resolve(process.argv[at + 1]) } };
}

const root = mkdtempSync(join(tmpdir(), "tool-search-"));
const executor = await createExecutor({ root, toolsConfig: false, mcpConfig: false, plugins: [catalogPlugin], ...toolSearchOption(), logger: { debug() {}, info() {}, warn: (message) => console.error(message), error: (message) => console.error(message) } });
const names = new Set(catalog.map((tool) => tool.name));

const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  if (line.trim() === "") continue;
  const { query, limit } = JSON.parse(line);
  // The built-in search_tools is not in the catalog: rank only the catalog's tools.
  const results = await executor.searchTools(query, { limit: (limit ?? 5) + 1 });
  const ranked = results.map((result) => result.name).filter((name) => names.has(name)).slice(0, limit ?? 5);
  process.stdout.write(`${JSON.stringify(ranked)}\n`);
}
await executor.close();
