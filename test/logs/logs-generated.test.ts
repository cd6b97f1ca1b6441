/**
 * The log reader on a generated log of a few MB over two files (a rotated one from three days ago and
 * the live one), with malformed lines: every filter, the time window (a rotated file that ends before
 * --since is not read), the summary's exact percentiles and the execution tree, each checked against
 * an oracle that parses every line with JSON.parse.
 */
import { mkdtempSync, readFileSync, utimesSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { execa } from "execa";
import { beforeAll, describe, expect, it } from "vitest";
import { openExecutionLog, type LoggedRecord } from "../../src/logs.js";
import { writeExecutionLog } from "../../scripts/generate-execution-log.mjs";
import { BIN } from "../cli/run-cli.js";

const DAY = 86_400_000;
const pad = (value: number) => String(value).padStart(2, "0");
const localDate = (time: number) => {
  const date = new Date(time);
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
};

let dir: string;
let oldRunId: string;
let records: LoggedRecord[];
const now = Date.now();

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), "toolexec-logs-generated-"));
  const dayStart = new Date(now - 3 * DAY).setHours(0, 0, 0, 0);
  const old = await writeExecutionLog(path.join(dir, `executions-${localDate(dayStart)}.jsonl`), { bytes: 1_500_000, seed: 7, start: dayStart, end: dayStart + DAY - 1, malformedEvery: 500 });
  oldRunId = old.executionIds.code!;
  // As rotation leaves it: last written at the end of the day it covers.
  utimesSync(path.join(dir, `executions-${localDate(dayStart)}.jsonl`), new Date(dayStart + DAY - 1), new Date(dayStart + DAY - 1));
  await writeExecutionLog(path.join(dir, "executions.jsonl"), { bytes: 2_500_000, seed: 8, start: now - 3_600_000, end: now, malformedEvery: 700 });
  records = [];
  for (const file of [`executions-${localDate(dayStart)}.jsonl`, "executions.jsonl"]) {
    for (const line of readFileSync(path.join(dir, file), "utf8").split("\n")) {
      if (line === "") continue;
      try {
        records.push(JSON.parse(line));
      } catch {
        // malformed: the reader skips it too
      }
    }
  }
}, 60_000);

const collect = async (filter: Parameters<ReturnType<typeof openExecutionLog>["records"]>[0]) => {
  const found: LoggedRecord[] = [];
  const { malformedLines } = await openExecutionLog(dir).records(filter, (record) => found.push(record));
  return { found, malformedLines };
};

describe("the log reader on a generated log", () => {
  it("filters by tool, server, code and outcome exactly as the lines say", async () => {
    const byTool = await collect({ tool: "github__get_issue" });
    expect(byTool.found).toEqual(records.filter((record) => record.tool === "github__get_issue"));
    expect(byTool.found.length).toBeGreaterThan(50);
    expect(byTool.malformedLines).toBeGreaterThan(5);
    const byServer = await collect({ server: "github" });
    expect(byServer.found.length).toBe(records.filter((record) => record.tool!.startsWith("github__")).length);
    const byCode = await collect({ code: "TIMEOUT" });
    expect(byCode.found).toEqual(records.filter((record) => record.ok === false && record.error?.code === "TIMEOUT"));
    expect(byCode.found.length).toBeGreaterThan(0);
    const ok = await collect({ outcome: "ok", tool: "word_count" });
    expect(ok.found.length).toBe(records.filter((record) => record.ok === true && record.tool === "word_count").length);
  });

  it("reads only the window: --since skips a file last written before it", async () => {
    const window = await openExecutionLog(dir).summary({ since: now - 2 * 3_600_000 });
    expect(window.files.map((file) => path.basename(file))).toEqual(["executions.jsonl"]);
    const recent = records.filter((record) => Date.parse(record.time!) >= now - 2 * 3_600_000);
    expect(window.tools.reduce((sum, tool) => sum + tool.calls, 0)).toBe(recent.length);
    const until = await collect({ until: now - 2 * DAY });
    expect(until.found.length).toBe(records.filter((record) => Date.parse(record.time!) <= now - 2 * DAY).length);
  });

  it("computes exact nearest-rank percentiles and errors by code", async () => {
    const summary = await openExecutionLog(dir).summary();
    const search = summary.tools.find((tool) => tool.tool === "github__search_issues")!;
    const calls = records.filter((record) => record.tool === "github__search_issues");
    const durations = calls.map((record) => record.durationMs!).sort((a, b) => a - b);
    const rank = (p: number) => durations[Math.ceil((p / 100) * durations.length) - 1];
    expect(search).toMatchObject({ calls: calls.length, p50Ms: rank(50), p95Ms: rank(95), maxMs: durations.at(-1) });
    const errors: Record<string, number> = {};
    for (const record of calls) if (record.ok === false) errors[record.error!.code!] = (errors[record.error!.code!] ?? 0) + 1;
    expect(search.errors).toEqual(errors);
    const queues = calls.map((record) => record.queueMs ?? 0).sort((a, b) => a - b);
    expect(search.queueP95Ms).toBe(queues[Math.ceil(0.95 * queues.length) - 1]);
  });

  it("shows a code run with its sub-calls as a tree, through the CLI too", async () => {
    const tree = await openExecutionLog(dir).tree(oldRunId);
    expect(tree?.record).toEqual(records.find((record) => record.executionId === oldRunId));
    expect(tree?.children.map((child) => child.record.parentExecutionId)).toEqual([oldRunId, oldRunId]);
    const printed = await execa(process.execPath, [BIN, "logs", "--log-dir", dir, "--execution", oldRunId], { reject: false });
    expect(printed.stdout.split("\n")).toEqual([expect.stringContaining(`code_execution`), expect.stringMatching(/^├─ .* github__search_issues /), expect.stringMatching(/^└─ .* word_count /)]);
    expect(printed.stderr).toBe("");
  });

  it("counts malformed lines on stderr and never fails on them", async () => {
    const summary = await execa(process.execPath, [BIN, "logs", "--log-dir", dir, "--json"], { reject: false });
    expect(summary.exitCode).toBe(0);
    const malformed = (JSON.parse(summary.stdout) as { malformedLines: number }).malformedLines;
    expect(malformed).toBeGreaterThan(5);
    expect(summary.stderr).toBe(`toolexec logs: skipped ${malformed} malformed lines (not JSON objects)`);
  });
});
