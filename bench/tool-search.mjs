#!/usr/bin/env node
// Tool search at scale: 10,000 synthetic tools (100 servers × 100 tools, seeded) served by a host
// plugin, searched through the public `executor.searchTools`, with the semantic stage on (the
// embedded word vectors). Build first (`npm run build`).
//
//   vectors        loading the embedded word vectors (once per process, on the first search)
//   build          the first search: indexes and embeds every tool, then answers (vectors already loaded)
//   query p50/p99  later searches, 200 queries of 2–6 words (wall time, and this process's CPU time)
//   first search after start  a second executor, searched --settle ms after start: the index was built in
//                  the background meanwhile (it starts 2 s after start) (its CPU, and the event loop's longest stall)
//   change found   a change signalled, a search 20 ms later: time from the signal to the answer
//   update         the first search after one tool's description changed (incremental re-index + query)
//   memory         heap growth from the index (run with --expose-gc for a steadier figure)
//   index only     the index alone (internal modules, keeping the word ranks the word vectors add up, as a search does): a full build, and `update` after one change,
//                  for the lexical index and for the word vectors' index (re-embeds only the changed tool)
//
//   node --expose-gc bench/tool-search.mjs [--tools 10000] [--queries 200]
//
// With `--model <folder>` (e.g. .toolexec/models/all-minilm-l6-v2-int8, from scripts/fetch-search-model.mjs)
// it measures the model stage instead, over `--model-tools` tools (default 1,000) in a fresh project:
//   cold first query   a new executor's first search: loads the model, embeds the tools its answer needs, answers
//   every tool embedded  when a search that needs every tool's vector answers (the rest embed in the background)
//   second executor    another executor over the same project and tools: reads the disk cache
//   query p50/p99      later searches (each embeds the request), and the event loop's longest stall meanwhile
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { createExecutor } from "../dist/index.js";
import { createToolIndex } from "../dist/plugins/search/tool-index.js";
import { createWordVectorIndex } from "../dist/plugins/search/word-vector-index.js";
import { loadWordVectors } from "../dist/plugins/search/word-vectors.js";
import { defaultVectorsRankOfWord } from "../dist/plugins/search/embed-with-word-vectors.js";
import { flag, format, median, quantile } from "./bench-utils.mjs";

const modelAt = process.argv.indexOf("--model");
const modelFolder = modelAt === -1 ? undefined : process.argv[modelAt + 1];
const toolCount = modelFolder ? flag("model-tools", 1_000) : flag("tools", 10_000);
const queryCount = flag("queries", 200);

/** A small seeded generator, so every run indexes the same tools. */
function seeded(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}
const random = seeded(13);
const pick = (list) => list[Math.floor(random() * list.length)];

const VERBS = ["get", "list", "create", "update", "delete", "search", "send", "run", "read", "write", "move", "export", "import", "sync", "archive"];
const NOUNS = ["issue", "file", "message", "page", "record", "invoice", "customer", "event", "job", "build", "image", "container", "table", "row", "comment", "user", "team", "report", "alert", "metric", "order", "ticket", "branch", "commit", "deployment"];
const WORDS = ["project", "workspace", "account", "folder", "channel", "status", "label", "owner", "date", "range", "filter", "limit", "cursor", "region", "version", "tag", "summary", "detail", "history", "schedule", "priority", "queue", "cluster", "service", "database"];

function syntheticTool(server, index) {
  const verb = pick(VERBS);
  const noun = pick(NOUNS);
  const extra = Array.from({ length: 12 }, () => pick(WORDS)).join(" ");
  return {
    name: `svc${server}__${verb}_${noun}_${index}`,
    description: `${verb[0].toUpperCase()}${verb.slice(1)} a ${noun} in service ${server}. Works with ${extra}.`,
    inputSchema: { type: "object", properties: { [`${noun}Id`]: { type: "string", description: `The ${noun} id` }, [pick(WORDS)]: { type: "string", description: `A ${pick(WORDS)}` } } },
  };
}

let tools = [];
for (let index = 0; index < toolCount; index++) tools.push(syntheticTool(index % 100, index));
const listeners = new Set();
const plugin = {
  name: "synthetic",
  async start() {
    return {
      listTools: () => tools,
      callTool: async () => ({ ok: true, value: null }),
      onToolsChanged: (listener) => (listeners.add(listener), () => listeners.delete(listener)),
      close: async () => {},
    };
  },
};

const queries = Array.from({ length: queryCount }, () => Array.from({ length: 2 + Math.floor(random() * 5) }, () => pick([...VERBS, ...NOUNS, ...WORDS])).join(" "));
const collect = () => globalThis.gc?.();
/** This process's CPU time in ms: on a machine shared with other work, steadier than wall time. */
const cpuNow = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/**
 * The main thread's CPU time in ms, from /proc (Linux; undefined elsewhere), in 10 ms ticks: the
 * process figure also holds V8's helper threads, which compile hot code and collect garbage.
 */
const mainThreadCpu = () => {
  try {
    const fields = readFileSync(`/proc/self/task/${process.pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
};

if (modelFolder) {
  await benchModel(modelFolder);
  process.exit(0);
}

/** The model stage: cold start, a second executor on the disk cache, queries, and the event loop meanwhile. */
async function benchModel(folder) {
  const { resolve } = await import("node:path");
  const { monitorEventLoopDelay } = await import("node:perf_hooks");
  const modelRoot = mkdtempSync(join(tmpdir(), "tool-search-model-bench-"));
  const open = () => createExecutor({ root: modelRoot, toolsConfig: false, mcpConfig: false, logDir: false, watch: false, plugins: [plugin], toolSearch: { model: resolve(folder) } });
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  let started = performance.now();
  const cold = await open();
  await cold.searchTools("create an issue", { limit: 5 });
  const coldFirst = performance.now() - started;
  // A request no tool's words match needs every tool's vector: it waits for the background to finish.
  await cold.searchTools("zzqx qxzz", { limit: 5 });
  const allEmbedded = performance.now() - started;
  loop.disable();
  const coldStall = loop.max / 1e6;
  const times = [];
  for (const query of queries.slice(0, 100)) {
    started = performance.now();
    await cold.searchTools(query, { limit: 10 });
    times.push(performance.now() - started);
  }
  await cold.close();
  started = performance.now();
  const startedCpu = cpuNow();
  const warm = await open();
  await warm.searchTools("create an issue", { limit: 5 });
  const second = performance.now() - started;
  const secondCpu = cpuNow() - startedCpu;
  await warm.close();
  console.log(`tool search with a model (${folder}), ${toolCount} tools (node ${process.version}, ${process.arch})`);
  console.log(`  cold first query       ${format(coldFirst)} (createExecutor + load + embed the tools the answer needs + answer)`);
  console.log(`  every tool embedded    ${format(allEmbedded)} after start (the rest in the background; longest event-loop stall meanwhile ${format(coldStall)})`);
  console.log(`  second executor        ${format(second)}, CPU ${format(secondCpu)} (createExecutor + first search, vectors from the disk cache; CPU of every thread)`);
  console.log(`  query p50 / p99        ${format(median(times))} / ${format(quantile(times, 0.99))}`);
}

collect();
const beforeVectors = process.memoryUsage();
let started = performance.now();
loadWordVectors();
const vectorsLoad = performance.now() - started;
collect();
const vectorsHeap = process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers - beforeVectors.heapUsed - beforeVectors.arrayBuffers;

const root = mkdtempSync(join(tmpdir(), "tool-search-bench-"));
const executor = await createExecutor({ root, toolsConfig: false, mcpConfig: false, logDir: false, watch: false, plugins: [plugin] });
collect();
const heapBefore = process.memoryUsage().heapUsed;
started = performance.now();
const buildCpuStarted = cpuNow();
const buildMainStarted = mainThreadCpu();
await executor.searchTools("create an issue", { limit: 5 });
const build = performance.now() - started;
const buildCpu = cpuNow() - buildCpuStarted;
const buildMain = buildMainStarted === undefined ? undefined : mainThreadCpu() - buildMainStarted;
collect();
const heapAfter = process.memoryUsage().heapUsed;


const times = [];
const queryCpu = [];
for (const query of queries) {
  started = performance.now();
  const cpuStarted = cpuNow();
  await executor.searchTools(query, { limit: 10 });
  times.push(performance.now() - started);
  queryCpu.push(cpuNow() - cpuStarted);
}

// A host that searches a little after start: the index is built in the background meanwhile (from
// 2 s after start, IDLE_BUILD_DELAY_MS), in slices that yield to the event loop. Wait `--settle` ms
// (default 5,000), then time the first search.
const settle = flag("settle", 5_000);
const { monitorEventLoopDelay } = await import("node:perf_hooks");
const background = await createExecutor({ root, toolsConfig: false, mcpConfig: false, logDir: false, watch: false, plugins: [plugin] });
const loop = monitorEventLoopDelay({ resolution: 5 });
loop.enable();
const cpuBeforeSettle = cpuNow();
await new Promise((resolve) => setTimeout(resolve, settle));
loop.disable();
const settleCpu = cpuNow() - cpuBeforeSettle;
started = performance.now();
let cpuStarted = cpuNow();
await background.searchTools("create an issue", { limit: 5 });
const settledFirst = performance.now() - started;
const settledFirstCpu = cpuNow() - cpuStarted;
/** One random tool's description gets `note` appended, and the host signals the change. */
function changeOneTool(note) {
  const at = Math.floor(random() * tools.length);
  tools = tools.map((tool, index) => (index === at ? { ...tool, description: `${tool.description} ${note}` } : tool));
  for (const listener of listeners) listener();
}

// A change found soon after `tools:changed`: the background re-indexes it before the search comes.
const soon = [];
for (let round = 0; round < 5; round++) {
  changeOneTool(`Soon ${round}.`);
  started = performance.now();
  await new Promise((resolve) => setTimeout(resolve, 20));
  await background.searchTools("update a record", { limit: 10 });
  soon.push(performance.now() - started);
}
await background.close();

const updates = [];
const updateCpu = [];
for (let round = 0; round < 5; round++) {
  changeOneTool(`Changed ${round}.`);
  started = performance.now();
  const cpuStarted = cpuNow();
  await executor.searchTools("update a record", { limit: 10 });
  updates.push(performance.now() - started);
  updateCpu.push(cpuNow() - cpuStarted);
}
await executor.close();

// The index alone: what re-indexing one changed tool costs next to indexing them all.
const index = createToolIndex({ rankOfWord: defaultVectorsRankOfWord }); // as the search engine makes it for the word vectors
started = performance.now();
index.update(tools);
const fullIndex = performance.now() - started;
const semantic = createWordVectorIndex();
started = performance.now();
await semantic.update(index);
const fullEmbedding = performance.now() - started;
const incremental = [];
const incrementalSemantic = [];
for (let round = 0; round < 20; round++) {
  const at = Math.floor(random() * tools.length);
  tools = tools.map((tool, position) => (position === at ? { ...tool, description: `${tool.description} Again ${round}.` } : tool));
  started = performance.now();
  index.update(tools);
  incremental.push(performance.now() - started);
  started = performance.now();
  await semantic.update(index);
  incrementalSemantic.push(performance.now() - started);
}

console.log(`tool search, ${toolCount} tools, ${queryCount} queries (node ${process.version}, ${process.arch})`);
console.log(`  vectors load           ${format(vectorsLoad)}, ${(vectorsHeap / 2 ** 20).toFixed(1)} MiB`);
console.log(`  build (first search)   ${format(build)} (CPU ${format(buildCpu)}${buildMain === undefined ? "" : `, of which the main thread ${buildMain} ms`}; at once after start: indexes and embeds every tool, then answers)`);
console.log(`  query p50 / p99        ${format(median(times))} / ${format(quantile(times, 0.99))} (CPU ${format(median(queryCpu))} / ${format(quantile(queryCpu, 0.99))})`);
console.log(`  first search ${settle} ms after start ${format(settledFirst)} (CPU ${format(settledFirstCpu)}; background build meanwhile: CPU ${format(settleCpu)}, longest event-loop stall ${format(loop.max / 1e6)})`);
console.log(`  change found, 20 ms after tools:changed  ${format(median(soon))} median of ${soon.length} from the signal (max ${format(Math.max(...soon))})`);
console.log(`  update after 1 change  ${format(median(updates))} median of ${updates.length} (max ${format(Math.max(...updates))}; CPU ${format(median(updateCpu))})`);
console.log(`  index only: full build ${format(fullIndex)}, update after 1 change ${format(median(incremental))} median of ${incremental.length}`);
console.log(`  semantic index: embed all ${format(fullEmbedding)}, update after 1 change ${format(median(incrementalSemantic))} median of ${incrementalSemantic.length}`);
console.log(`  index heap (both)      ${((heapAfter - heapBefore) / 2 ** 20).toFixed(1)} MiB${globalThis.gc ? "" : " (no --expose-gc: rough)"}`);
