// Writes a synthetic execution log shaped like the executor's (docs/config.md#execution-log): calls
// of a dozen tools, errors with their codes, queue waits, code runs with their sub-calls, lines with
// and without traceId/spanId, and optionally malformed lines. Deterministic for a given seed.
// Used by bench/logs-summary.mjs and the `toolexec logs` tests.
// Usage: node scripts/generate-execution-log.mjs <file> [megabytes]
import { createWriteStream } from "node:fs";
import { once } from "node:events";

const TOOLS = ["word_count", "csv_summary", "github__search_issues", "github__get_issue", "files__read_file", "files__list_directory", "weather__forecast", "web_search", "search_tools", "unit_convert", "slack__post_message"];
const CODES = ["TIMEOUT", "TOOL_FAILED", "INVALID_INPUT", "SERVICE_UNAVAILABLE"];

/** A small deterministic generator (mulberry32). */
function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const hex = (next, length) => Array.from({ length }, () => Math.floor(next() * 16).toString(16)).join("");
const uuid = (next) => `${hex(next, 8)}-${hex(next, 4)}-4${hex(next, 3)}-a${hex(next, 3)}-${hex(next, 12)}`;

/**
 * Write about `bytes` of log lines to `file`; returns { lines, calls, executionIds }, where
 * `executionIds.code` is the id of one code run with sub-calls.
 */
export async function writeExecutionLog(file, { bytes = 1024 * 1024, seed = 1, start = Date.now() - 3_600_000, end = Date.now(), malformedEvery = 0 } = {}) {
  const next = random(seed);
  const out = createWriteStream(file);
  let written = 0;
  let lines = 0;
  let calls = 0;
  let codeRun;
  const span = end - start;
  const record = (time, tool, extra = {}) => {
    const failed = next() < 0.05;
    const durationMs = Math.round(Math.exp(next() * 7) * 1000) / 1000;
    return {
      time: new Date(time).toISOString(),
      executionId: uuid(next),
      tool,
      plugin: tool.includes("__") ? "mcp" : "script",
      arguments: { query: `find ${hex(next, 6)} in the ${hex(next, 4)} documents`, limit: Math.floor(next() * 50) },
      ok: !failed,
      ...(failed ? { error: { code: CODES[Math.floor(next() * CODES.length)], message: "The tool failed: exit code 2; see stderr for the cause of it" } } : { value: { items: [hex(next, 10), hex(next, 10)], total: Math.floor(next() * 1000) } }),
      durationMs,
      ...(next() < 0.2 ? { queueMs: Math.round(next() * 500_000) / 1000 } : {}),
      timeoutMs: 30000,
      caller: { name: "claude-code", version: "2.1.0", sessionId: uuid(next) },
      ...(next() < 0.5 ? { traceId: hex(next, 32), spanId: hex(next, 16) } : {}),
      ...extra,
    };
  };
  const write = async (line) => {
    written += Buffer.byteLength(line) + 1;
    lines++;
    if (!out.write(`${line}\n`)) await once(out, "drain");
  };
  while (written < bytes) {
    const time = start + (written / bytes) * span;
    if (malformedEvery > 0 && lines % malformedEvery === malformedEvery - 1) {
      await write('{"time": "2026-11-28T10:00:00.000Z", "tool": "cut off mid-line');
      continue;
    }
    if (next() < 0.05) {
      // A code run: its sub-calls are written first (a call is logged when it ends), then the run.
      const run = record(time, "code_execution", { plugin: "code", code: "const a = await tools.github.search_issues({ query: 'x' });", toolCallCount: 2 });
      for (let index = 0; index < 2; index++) {
        await write(JSON.stringify(record(time + index, index === 0 ? "github__search_issues" : "word_count", { parentExecutionId: run.executionId })));
        calls++;
      }
      await write(JSON.stringify(run));
      calls++;
      codeRun ??= run.executionId;
      continue;
    }
    await write(JSON.stringify(record(time, TOOLS[Math.floor(next() * TOOLS.length)])));
    calls++;
  }
  out.end();
  await once(out, "finish");
  return { lines, calls, bytes: written, executionIds: { code: codeRun } };
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split("/").pop())) {
  const [file, megabytes = "100"] = process.argv.slice(2);
  if (!file) throw new Error("Usage: node scripts/generate-execution-log.mjs <file> [megabytes]");
  console.log(await writeExecutionLog(file, { bytes: Number(megabytes) * 1024 * 1024 }));
}
