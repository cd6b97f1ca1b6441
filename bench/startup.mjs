// Cold start and footprint (issue 30): each figure is the median of `--runs` fresh processes, beside
// bare `node -e 1` measured in the same run, on a temp copy of the bundled example project (tools.json
// with its three tools and code mode, an empty mcp.json):
//   node -e 1            spawn → exit of bare node (the floor every figure below sits on)
//   import               spawn → exit of `await import("toolexec")` (dist/index.js), and that minus bare node;
//                        in a fresh process, the import's wall and CPU time
//   createExecutor       in a fresh process, after the import: `createExecutor({ root, watch: false })`, wall
//                        and the CPU time of the process meanwhile
// Each checkout's `toolexec` is the executable its package.json "bin" names (what `npx toolexec` runs).
//   serve stdio ready    spawn of `toolexec serve` → `tools/list` answered (initialize sent at spawn),
//                        and the CPU time serve used until then (user + system: barely moves with the
//                        load other processes put on the machine, unlike wall time)
//   first code call      `code_execution` of `return 1 + 1` sent right after that listing → answered
//   serve RSS            the serve process's resident size after the listing, and after the code call
//   runtime RSS          each code runtime (a child process of serve) after the code call
//   runtime CPU          the CPU time of the runtime that ran it: Node's start, SES (from its V8 code
//                        cache once the host has written it), lockdown, and the run
//   serve http ready     spawn of `toolexec serve --http --port 0` → URL printed (port open), and →
//                        `tools/list` answered over HTTP
// With `--baseline <dir>` (a checkout of another version with its own built dist/ and node_modules),
// every measurement runs alternately on it and on this checkout, and the ratios this/baseline are
// printed: the load other processes put on the machine falls on both alike.
// Usage: npm run build && node bench/startup.mjs [--runs 9] [--baseline /path/to/other/checkout]
import { spawn } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import { flag, median } from "./bench-utils.mjs";

const here = path.resolve(fileURLToPath(new URL("..", import.meta.url)));
const runs = flag("runs", 9);
const baselineIndex = process.argv.indexOf("--baseline");
const baseline = baselineIndex >= 0 ? path.resolve(process.argv[baselineIndex + 1]) : undefined;
// Generous: the machine may be shared.
const STEP_DEADLINE_MS = 60_000;

/** A temp copy of the bundled example project (what `npm run example` uses). */
function copyExample() {
  const root = mkdtempSync(path.join(os.tmpdir(), "toolexec-bench-cold-"));
  for (const item of ["tools.json", "mcp.json", "tools", "examples/sales.csv"]) cpSync(path.join(here, item), path.join(root, item), { recursive: true });
  return root;
}

/** The checkout's `toolexec` executable, as its package.json "bin" names it. */
function toolexecBin(checkout) {
  const { bin } = JSON.parse(readFileSync(path.join(checkout, "package.json"), "utf8"));
  return path.join(checkout, typeof bin === "string" ? bin : bin.toolexec);
}

/** Spawn → exit of `node args`, in ms; rejects on a non-zero exit. Stdout is returned. */
function timeProcess(args, options = {}) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"], ...options });
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk) => (out += chunk));
    child.stderr.on("data", (chunk) => (err += chunk));
    child.on("error", reject);
    child.on("exit", (code) => {
      const ms = performance.now() - started;
      if (code === 0) resolve({ ms, out });
      else reject(new Error(`node ${args.join(" ")} exited with ${code}: ${err}`));
    });
  });
}

/** Resident set size of a process in MB, from /proc (Linux). */
function rssMb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)[1]) / 1024;
}

/** CPU time a process has used so far (user + system, all its threads), in ms, from /proc (Linux). */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  // utime and stime are fields 14 and 15 of stat, in clock ticks (100 a second on Linux).
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** The code runtimes among a process's children: their pids. */
function runtimeChildren(pid) {
  const children = [];
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    const text = readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").trim();
    if (text) children.push(...text.split(/\s+/).map(Number));
  }
  return children.filter((child) => {
    try {
      return readFileSync(`/proc/${child}/cmdline`, "utf8").includes("runtime-main");
    } catch {
      return false;
    }
  });
}

const INITIALIZE = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench-startup", version: "1" } } };
const INITIALIZED = { jsonrpc: "2.0", method: "notifications/initialized" };
const LIST = { jsonrpc: "2.0", id: 2, method: "tools/list", params: {} };
const CODE_CALL = { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "code_execution", arguments: { code: "return 1 + 1" } } };

function withDeadline(promise, what) {
  let timer;
  const deadline = new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: no answer within ${STEP_DEADLINE_MS} ms`)), STEP_DEADLINE_MS)));
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

/** `toolexec serve` over stdio: ready time, first code call, RSS of serve and of its runtimes. */
async function serveStdio(checkout, root) {
  const started = performance.now();
  const child = spawn(process.execPath, [toolexecBin(checkout), "serve", "--root", root], { stdio: ["pipe", "pipe", "pipe"] });
  const waiting = new Map();
  let buffer = "";
  let err = "";
  child.stderr.on("data", (chunk) => (err += chunk));
  child.stdout.on("data", (chunk) => {
    buffer += chunk;
    let newline;
    while ((newline = buffer.indexOf("\n")) >= 0) {
      const message = JSON.parse(buffer.slice(0, newline));
      buffer = buffer.slice(newline + 1);
      if (message.id !== undefined && waiting.has(message.id)) waiting.get(message.id)({ message, at: performance.now() });
    }
  });
  const exited = new Promise((resolve) => child.on("exit", resolve));
  const request = (body) => {
    const answer = new Promise((resolve) => waiting.set(body.id, resolve));
    child.stdin.write(`${JSON.stringify(body)}\n`);
    return withDeadline(Promise.race([answer, exited.then((code) => Promise.reject(new Error(`serve exited with ${code}: ${err}`)))]), body.method);
  };
  try {
    await request(INITIALIZE);
    child.stdin.write(`${JSON.stringify(INITIALIZED)}\n`);
    const listed = await request(LIST);
    if (!listed.message.result?.tools?.length) throw new Error(`tools/list answered ${JSON.stringify(listed.message)}`);
    const readyMs = listed.at - started;
    const listedCpu = cpuMs(child.pid);
    const listedRss = rssMb(child.pid);
    const sent = performance.now();
    const code = await request(CODE_CALL);
    const codeMs = code.at - sent;
    if (code.message.result?.isError !== false && code.message.result?.isError !== undefined) throw new Error(`code_execution failed: ${JSON.stringify(code.message)}`);
    const codeRss = rssMb(child.pid);
    const children = runtimeChildren(child.pid);
    const runtimes = children.map(rssMb);
    // The runtime that ran the call has used the most CPU: its start (Node, SES, lockdown) and the run.
    const runtimeCpu = children.length > 0 ? Math.max(...children.map(cpuMs)) : NaN;
    return { readyMs, listedCpu, codeMs, listedRss, codeRss, runtimeRss: runtimes.length > 0 ? Math.max(...runtimes) : NaN, runtimeCpu, runtimes: runtimes.length };
  } finally {
    child.stdin.end();
    await withDeadline(exited, "serve exit");
  }
}

/** One JSON-RPC request over Streamable HTTP; the answer may come as JSON or as one SSE event. */
async function post(url, body, session) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18", ...(session ? { "mcp-session-id": session } : {}) },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${body.method}: HTTP ${response.status} ${text}`);
  const json = (response.headers.get("content-type") ?? "").includes("text/event-stream") ? text.split("\n").filter((line) => line.startsWith("data:")).map((line) => line.slice(5)).join("") : text;
  return { session: response.headers.get("mcp-session-id") ?? session, message: json ? JSON.parse(json) : undefined };
}

/** `toolexec serve --http --port 0`: time until the URL is printed and until tools/list is answered. */
async function serveHttp(checkout, root) {
  const started = performance.now();
  const child = spawn(process.execPath, [toolexecBin(checkout), "serve", "--http", "--port", "0", "--root", root], { stdio: ["ignore", "pipe", "pipe"] });
  let err = "";
  child.stderr.on("data", (chunk) => (err += chunk));
  const exited = new Promise((resolve) => child.on("exit", resolve));
  try {
    const url = await withDeadline(
      new Promise((resolve, reject) => {
        let out = "";
        child.stdout.on("data", (chunk) => {
          out += chunk;
          const line = out.split("\n").find((text) => text.startsWith("http"));
          if (line) resolve(line.trim());
        });
        void exited.then((code) => reject(new Error(`serve --http exited with ${code}: ${err}`)));
      }),
      "serve --http URL",
    );
    const portMs = performance.now() - started;
    const { session } = await post(url, INITIALIZE);
    await post(url, INITIALIZED, session);
    const listed = await post(url, LIST, session);
    if (!listed.message?.result?.tools?.length) throw new Error(`tools/list answered ${JSON.stringify(listed.message)}`);
    return { portMs, readyMs: performance.now() - started };
  } finally {
    child.kill("SIGTERM");
    await withDeadline(exited, "serve --http exit");
  }
}

/** In a fresh process: import time, and `createExecutor` on the example. */
async function createExecutorTimes(checkout, root) {
  const entry = pathToFileURL(path.join(checkout, "dist/index.js")).href;
  const script = [
    "const { performance } = await import('node:perf_hooks');",
    `const importCpu = process.cpuUsage(); const before = performance.now(); const { createExecutor } = await import(${JSON.stringify(entry)}); const imported = performance.now(); const importUsed = process.cpuUsage(importCpu);`,
    `const cpu = process.cpuUsage(); const executor = await createExecutor({ root: ${JSON.stringify(root)}, watch: false }); const created = performance.now(); const used = process.cpuUsage(cpu);`,
    "await executor.close();",
    "console.log(JSON.stringify({ importMs: imported - before, createMs: created - imported, createCpuMs: (used.user + used.system) / 1000, importCpuMs: (importUsed.user + importUsed.system) / 1000 }));",
  ].join("\n");
  return JSON.parse((await timeProcess(["--input-type=module", "-e", script])).out);
}

const measures = {
  bare: async () => ({ ms: (await timeProcess(["-e", "1"])).ms }),
  import: async (checkout) => ({ ms: (await timeProcess(["--input-type=module", "-e", `await import(${JSON.stringify(pathToFileURL(path.join(checkout, "dist/index.js")).href)})`])).ms }),
  create: createExecutorTimes,
  stdio: serveStdio,
  http: serveHttp,
};

/** The rows each measurement fills: [row, field of its result]. */
const ROWS = {
  create: [
    ["import (in process)", "importMs"],
    ["import: its CPU", "importCpuMs"],
    ["createExecutor", "createMs"],
    ["createExecutor: its CPU", "createCpuMs"],
  ],
  stdio: [
    ["serve stdio: tools/list after spawn", "readyMs"],
    ["serve stdio: its CPU until listed", "listedCpu"],
    ["first code_execution after ready", "codeMs"],
    ["serve RSS after listing (MB)", "listedRss"],
    ["serve RSS after one code call (MB)", "codeRss"],
    ["code runtime RSS (MB)", "runtimeRss"],
    ["code runtime CPU: start + one run", "runtimeCpu"],
  ],
  http: [
    ["serve http: URL printed after spawn", "portMs"],
    ["serve http: tools/list after spawn", "readyMs"],
  ],
};

const checkouts = baseline ? [["baseline", baseline], ["this", here]] : [["this", here]];
const samples = Object.fromEntries(checkouts.map(([name]) => [name, {}]));
const root = copyExample();
const record = (name, key, value) => (samples[name][key] ??= []).push(value);
console.log(`startup: ${runs} runs each, ${os.availableParallelism()} cores, load average ${os.loadavg().map((load) => load.toFixed(2)).join(" ")}; example project copied to ${root}`);
try {
  for (let run = 0; run < runs; run++) {
    for (const [name, checkout] of checkouts) {
      const bare = await measures.bare();
      record(name, "node -e 1", bare.ms);
      record(name, "import (spawn→exit)", (await measures.import(checkout)).ms);
      for (const [measure, rows] of Object.entries(ROWS)) {
        const result = await measures[measure](checkout, root);
        for (const [row, key] of rows) record(name, row, result[key]);
      }
    }
    process.stderr.write(".");
  }
  process.stderr.write("\n");
} finally {
  rmSync(root, { recursive: true, force: true });
}

const rows = Object.keys(samples[checkouts[0][0]]);
for (const [name] of checkouts) {
  const bare = median(samples[name]["node -e 1"]);
  samples[name]["import over bare node"] = [median(samples[name]["import (spawn→exit)"]) - bare];
}
rows.splice(2, 0, "import over bare node");
const unit = (row) => (row.includes("MB") ? "" : " ms");
const header = baseline ? `${"".padEnd(40)}${"baseline".padStart(12)}${"this".padStart(12)}${"ratio".padStart(8)}` : `${"".padEnd(40)}${"median".padStart(12)}`;
console.log(header);
for (const row of rows) {
  const values = checkouts.map(([name]) => median(samples[name][row]));
  const cells = values.map((value) => `${value.toFixed(1)}${unit(row)}`.padStart(12)).join("");
  console.log(`${row.padEnd(40)}${cells}${baseline ? (values[1] / values[0]).toFixed(2).padStart(8) : ""}`);
}
