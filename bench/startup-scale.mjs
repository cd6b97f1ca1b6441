// Start-up cost against registry size: for each N, a temp project whose tools.json holds N script
// tools (alternately python and shell, one script file each, with a small but realistic inputSchema:
// typed properties with descriptions, an enum, a pattern, bounds). Each measurement runs in a fresh
// child process, so no JIT state, module cache or warmed-up heap carries over between them; each N is
// measured `--repeats` times and the median of each phase printed:
//   read+parse      the baseline, in its own fresh child, interleaved with toolexec's: `fs.readFile`
//                   and `JSON.parse` of the same tools.json, the least any loader must do
//   boot+import     node start until `dist/index.js` is imported (the same for every N; the floor)
//   createExecutor  `createExecutor({ root, watch: false, logDir: false })`, wall, and the child's CPU
//                   meanwhile (all its threads: GC helpers and libuv's pool can push it past wall time;
//                   unlike wall time it barely moves with the load other processes put on the machine)
//   listTools       the first `executor.listTools()`
//   first call      the first `callTool` of one tool in the middle of the registry (spawns its script)
//   close           `executor.close()`
//   spawn→exit      the parent's view: child spawned until it exited by itself
// and the ratios createExecutor / read+parse, in wall time and in CPU time (toolexec's own cost
// shows as the part above 1; the CPU ratio barely moves with the load other processes put on the machine).
// Goal: createExecutor ≤ 300 ms at 10,000 tools, ≤ 1 s at 30,000.
// Usage: npm run build && node bench/startup-scale.mjs [--tools 1000,10000,30000] [--repeats 5]
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { flag, listFlag, median } from "./bench-utils.mjs";

const CHILD_FLAG = "--child";
const BASELINE_FLAG = "--baseline-child";
// Generous: the machine may be shared, and 30,000 tools write a 35 MB file.
const CHILD_DEADLINE_MS = 5 * 60_000;
const nouns = ["invoice", "customer", "ticket", "shipment", "report", "repository", "calendar", "sensor"];
const verbs = ["lookup", "summarize", "export", "validate", "archive", "forecast"];

/** The name of the tool at `index`: readable, unique, varied like a real registry's. */
const toolName = (index) => `${nouns[index % nouns.length]}_${verbs[index % verbs.length]}_${index}`;
const callArguments = { query: "open items: Q3", mode: "fast", limit: 5 };

function toolEntry(index) {
  const name = toolName(index);
  const noun = nouns[index % nouns.length];
  const python = index % 2 === 0;
  return {
    name,
    description: `${verbs[index % verbs.length]} ${noun} records matching a query. Returns the matching ${noun} records as JSON; use mode "dry-run" to check a query without side effects.`,
    runtime: python ? "python" : "shell",
    script: `${name}.${python ? "py" : "sh"}`,
    inputSchema: {
      type: "object",
      properties: {
        query: { type: "string", minLength: 1, maxLength: 200, pattern: "^[\\w .,:-]+$", description: `Text to search for in ${noun} records (letters, digits, spaces and . , : -).` },
        mode: { type: "string", enum: ["fast", "thorough", "dry-run"], description: "fast: index only; thorough: full scan; dry-run: validate the query only." },
        limit: { type: "integer", minimum: 1, maximum: 100, description: "Most records to return (default 10)." },
      },
      required: ["query"],
      additionalProperties: false,
    },
  };
}

function scriptSource(index) {
  const name = toolName(index);
  if (index % 2 === 0) {
    return `import json, sys\nargs = json.load(sys.stdin)\njson.dump({"tool": "${name}", "query": args["query"], "mode": args.get("mode", "fast"), "records": []}, sys.stdout)\n`;
  }
  return `input=$(cat)\nprintf '{"tool":"${name}","input":%s,"records":[]}\\n' "$input"\n`;
}

/** A project with `count` tools; returns its root and the size of its tools.json. */
function writeProject(count) {
  const root = mkdtempSync(path.join(os.tmpdir(), `toolexec-bench-startup-${count}-`));
  mkdirSync(path.join(root, "tools"));
  const tools = [];
  for (let index = 0; index < count; index++) {
    const entry = toolEntry(index);
    tools.push(entry);
    writeFileSync(path.join(root, "tools", entry.script), scriptSource(index));
  }
  writeFileSync(path.join(root, "tools.json"), JSON.stringify({ tools }, null, 2));
  writeFileSync(path.join(root, "mcp.json"), JSON.stringify({ mcpServers: {} }));
  return { root, bytes: statSync(path.join(root, "tools.json")).size };
}

/** One measurement in this (fresh) process; prints its timings as one JSON line. */
async function runChild(root, tool, expected) {
  const { createExecutor } = await import("../dist/index.js");
  const imported = performance.now();
  const cpuBefore = process.cpuUsage();
  const executor = await createExecutor({ root, watch: false, logDir: false });
  const created = performance.now();
  const createCpu = process.cpuUsage(cpuBefore);
  const listed = await executor.listTools();
  const afterList = performance.now();
  if (listed.length < expected) throw new Error(`listTools returned ${listed.length} tools, expected at least ${expected}`);
  const result = await executor.callTool(tool, callArguments);
  const afterCall = performance.now();
  if (!result.ok) throw new Error(`${tool} failed: ${JSON.stringify(result.error)}`);
  await executor.close();
  const closed = performance.now();
  // performance.now() counts from this process's start, so the first figure includes node's boot.
  const timings = {
    bootAndImport: imported,
    create: created - imported,
    createCpu: (createCpu.user + createCpu.system) / 1000,
    list: afterList - created,
    firstCall: afterCall - afterList,
    close: closed - afterCall,
    listed: listed.length,
    maxRssMb: process.resourceUsage().maxRSS / 1024,
  };
  console.log(JSON.stringify(timings));
}

/** The baseline in this (fresh) process: read tools.json and JSON.parse it, nothing else. */
async function runBaselineChild(root, expected) {
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const { tools } = JSON.parse(await readFile(path.join(root, "tools.json"), "utf8"));
  const cpu = process.cpuUsage(cpuBefore);
  const readAndParse = performance.now() - started;
  if (tools.length !== expected) throw new Error(`parsed ${tools.length} tools, expected ${expected}`);
  console.log(JSON.stringify({ readAndParse, readAndParseCpu: (cpu.user + cpu.system) / 1000 }));
}

/** Spawns a fresh node on this file in child mode; resolves its timings plus its spawn→exit time. */
function measureInChild(root, tool, expected, mode = CHILD_FLAG) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [fileURLToPath(import.meta.url), mode, root, tool, String(expected)], { stdio: ["ignore", "pipe", "inherit"] });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    const deadline = setTimeout(() => child.kill("SIGKILL"), CHILD_DEADLINE_MS);
    child.once("error", reject);
    child.once("close", (code, signal) => {
      clearTimeout(deadline);
      const spawnToExit = performance.now() - started;
      if (code !== 0) return reject(new Error(`child for ${root} exited with ${signal ?? code}:\n${output}`));
      const line = output.trim().split("\n").at(-1);
      resolve({ ...JSON.parse(line), spawnToExit });
    });
  });
}

function printRow(cells, widths) {
  console.log(cells.map((cell, column) => String(cell).padStart(widths[column])).join("  "));
}

async function main() {
  const sizes = listFlag("tools", [1000, 10000, 30000]);
  const repeats = flag("repeats", 5);
  const header = ["tools", "tools.json", "read+parse", "createExecutor", "ratio", "parse CPU", "create CPU", "CPU ratio", "boot+import", "listTools", "first call", "close", "spawn→exit", "max RSS"];
  const widths = header.map((cell) => Math.max(cell.length, 10));
  const ms = (value) => `${value.toFixed(1)} ms`;
  const load = () => os.loadavg().map((value) => value.toFixed(2)).join(" ");
  console.log(`start-up against registry size: median of ${repeats} fresh child processes per size and kind, interleaved (node ${process.version}, ${os.cpus().length} cores, load ${load()})`);
  printRow(header, widths);
  for (const count of sizes) {
    const project = writeProject(count);
    try {
      const samples = [];
      const baselines = [];
      const tool = toolName(Math.floor(count / 2));
      for (let repeat = 0; repeat < repeats; repeat++) {
        baselines.push(await measureInChild(project.root, tool, count, BASELINE_FLAG));
        samples.push(await measureInChild(project.root, tool, count));
      }
      const middle = (key) => median(samples.map((sample) => sample[key]));
      const baseline = median(baselines.map((sample) => sample.readAndParse));
      const baselineCpu = median(baselines.map((sample) => sample.readAndParseCpu));
      printRow(
        [
          count,
          `${(project.bytes / 1024 / 1024).toFixed(1)} MB`,
          ms(baseline),
          ms(middle("create")),
          `${(middle("create") / baseline).toFixed(2)}×`,
          ms(baselineCpu),
          ms(middle("createCpu")),
          `${(middle("createCpu") / baselineCpu).toFixed(2)}×`,
          ms(middle("bootAndImport")),
          ms(middle("list")),
          ms(middle("firstCall")),
          ms(middle("close")),
          ms(middle("spawnToExit")),
          `${middle("maxRssMb").toFixed(0)} MB`,
        ],
        widths,
      );
    } finally {
      rmSync(project.root, { recursive: true, force: true });
    }
  }
  console.log(`load at the end: ${load()}`);
}

const childIndex = process.argv.findIndex((argument) => argument === CHILD_FLAG || argument === BASELINE_FLAG);
if (childIndex >= 0) {
  const [root, tool, expected] = process.argv.slice(childIndex + 1);
  if (process.argv[childIndex] === BASELINE_FLAG) await runBaselineChild(root, Number(expected));
  else await runChild(root, tool, Number(expected));
} else {
  await main();
}
