/** Rotation of the execution log: timed files across interval boundaries, retention by maxFiles, daily names. */
import { existsSync, readFileSync, utimesSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { createExecutor, type Executor, type ExecutorOptions } from "../../src/index.js";
import { DEFAULT_LOG_INTERVAL, DEFAULT_LOG_MAX_FILES } from "../../src/core/log/execution-log.js";
import { resolveExecutorOptions } from "../../src/core/executor/core-option-schemas.js";
import { createStream } from "rotating-file-stream";
import { isLogInterval, rotatedFileName } from "../../src/core/log/execution-log.js";
import { createTempProject, toolEntry } from "../helpers/temp-project.js";
import { DEFAULT_LOG_PATH, executorOptions, listLogFiles, readLogRecords } from "./log-test-helpers.js";

const pad = (value: number) => String(value).padStart(2, "0");
const localDate = (time: Date) => `${time.getFullYear()}-${pad(time.getMonth() + 1)}-${pad(time.getDate())}`;
const localSecond = (time: Date) => `${localDate(time)}T${pad(time.getHours())}${pad(time.getMinutes())}${pad(time.getSeconds())}`;

const open: Executor[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((executor) => executor.close()));
});

async function echoProject(log: ExecutorOptions["log"] = {}) {
  const project = createTempProject({ tools: { tools: [toolEntry("echo", "shell", "echo.sh")] } });
  project.write("tools/echo.sh", "cat\n");
  const executor = await createExecutor(executorOptions(project, { log }));
  open.push(executor);
  return { project, executor, logDir: project.path(DEFAULT_LOG_PATH) };
}

/**
 * Sleep until `offsetMs` into a second (this one if it is still early enough), so that a call and
 * its batch (written up to LOG_FLUSH_DELAY_MS later, in the file of the second it is written in)
 * cannot straddle a 1 s boundary.
 */
async function intoSecond(offsetMs: number) {
  const elapsed = Date.now() % 1000;
  await sleep(elapsed <= offsetMs ? offsetMs - elapsed : 1000 - elapsed + offsetMs);
}

async function waitForFile(file: string, timeoutMs: number) {
  const until = Date.now() + timeoutMs;
  while (!existsSync(file)) {
    if (Date.now() > until) throw new Error(`${path.basename(file)} did not appear within ${timeoutMs} ms`);
    await sleep(20);
  }
}

/** Whether the live file holds the record; false while it is being rotated or half written. */
function liveFileHolds(logDir: string, executionId: string) {
  try {
    return readLogRecords(logDir).some((record) => record.executionId === executionId);
  } catch {
    return false;
  }
}

/**
 * Calls `echo` and waits until its record is in the live file, all within the second the call started
 * in: the record is then in that second's file. Returns the second, or undefined when the call or its
 * write-behind flush ran past the second's end (a busy machine), where the file it went to is unknown.
 */
async function callWithinSecond(executor: Executor, logDir: string, turn: number) {
  const second = localSecond(new Date());
  const { executionId } = await executor.callTool("echo", { turn });
  for (;;) {
    const logged = liveFileHolds(logDir, executionId);
    if (localSecond(new Date()) !== second) return { executionId, second: undefined };
    if (logged) return { executionId, second };
    await sleep(10);
  }
}

/** Five calls in five successive seconds; undefined when one of them straddled a second's end. */
async function callsInFiveSeconds(executor: Executor, logDir: string) {
  const calls: Array<{ executionId: string; second: string }> = [];
  await intoSecond(100);
  for (let turn = 0; turn < 5; turn++) {
    if (turn > 0) {
      // The file of the previous second is rotated when that second ends.
      await waitForFile(path.join(logDir, `executions-${calls[turn - 1]!.second}.jsonl`), 2000);
      await intoSecond(100);
    }
    const call = await callWithinSecond(executor, logDir, turn);
    if (call.second === undefined) return undefined;
    calls.push({ executionId: call.executionId, second: call.second });
  }
  return calls;
}

describe("execution log rotation", () => {
  it("rotates at each interval boundary into files named for the interval, keeping maxFiles of them", async () => {
    // A call that straddles a second's end says nothing about naming; start over in a fresh project.
    let attempt: { logDir: string; executor: Executor; calls: Array<{ executionId: string; second: string }> | undefined } | undefined;
    for (let tries = 0; tries < 3 && attempt?.calls === undefined; tries++) {
      const { executor, logDir } = await echoProject({ interval: "1s", maxFiles: 2 });
      attempt = { executor, logDir, calls: await callsInFiveSeconds(executor, logDir) };
    }
    const { executor, logDir, calls } = attempt!;
    if (calls === undefined) throw new Error("three attempts each had a call straddle a second's end");
    await executor.close();

    // Four rotations happened; maxFiles 2 kept the newest two rotated files.
    const kept = [calls[2]!, calls[3]!].map((call) => `executions-${call.second}.jsonl`);
    expect(listLogFiles(logDir)).toEqual([".executions-history", ...kept, "executions.jsonl"].sort());
    expect(readLogRecords(logDir, kept[0]).map((record) => record.executionId)).toEqual([calls[2]!.executionId]);
    expect(readLogRecords(logDir, kept[1]).map((record) => record.executionId)).toEqual([calls[3]!.executionId]);
    expect(readLogRecords(logDir).map((record) => record.executionId)).toEqual([calls[4]!.executionId]);
    expect(readFileSync(path.join(logDir, ".executions-history"), "utf8").trim().split("\n").map((file) => path.basename(file))).toEqual(kept);
  }, 40_000);

  it("names rotated files by day with the default interval, rotating a file left from an earlier day on open", async () => {
    const project = createTempProject({ tools: { tools: [toolEntry("echo", "shell", "echo.sh")] } });
    project.write("tools/echo.sh", "cat\n");
    const logDir = project.path(DEFAULT_LOG_PATH);
    const old = project.write(`${DEFAULT_LOG_PATH}/executions.jsonl`, '{"old":true}\n');
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 3600 * 1000);
    utimesSync(old, twoDaysAgo, twoDaysAgo);

    const executor = await createExecutor(executorOptions(project));
    open.push(executor);
    const result = await executor.callTool("echo", { today: true });
    await executor.close();

    const rotated = `executions-${localDate(twoDaysAgo)}.jsonl`;
    expect(listLogFiles(logDir)).toEqual([".executions-history", rotated, "executions.jsonl"]);
    expect(readFileSync(path.join(logDir, rotated), "utf8")).toBe('{"old":true}\n');
    expect(readLogRecords(logDir).map((record) => record.executionId)).toEqual([result.executionId]);
  });

  it("appends to today's file instead of rotating it", async () => {
    const { project, executor: first, logDir } = await echoProject();
    const one = await first.callTool("echo", { n: 1 });
    await first.close();
    const second = await createExecutor(executorOptions(project));
    open.push(second);
    const two = await second.callTool("echo", { n: 2 });
    await second.close();
    expect(listLogFiles(logDir)).toEqual(["executions.jsonl"]);
    expect(readLogRecords(logDir).map((record) => record.executionId)).toEqual([one.executionId, two.executionId]);
  });
});

describe("rotated file names", () => {
  const when = new Date(2026, 10, 22, 9, 5, 7);

  it("uses the date for daily and longer intervals, and the time too for shorter ones", () => {
    expect(rotatedFileName("1d")(when)).toBe("executions-2026-11-22.jsonl");
    expect(rotatedFileName("7d")(when)).toBe("executions-2026-11-22.jsonl");
    expect(rotatedFileName("1M")(when)).toBe("executions-2026-11-22.jsonl");
    expect(rotatedFileName("12h")(when)).toBe("executions-2026-11-22T090507.jsonl");
    expect(rotatedFileName("30m")(when)).toBe("executions-2026-11-22T090507.jsonl");
    expect(rotatedFileName("1s")(when)).toBe("executions-2026-11-22T090507.jsonl");
  });

  it("names the live file executions.jsonl and numbers a second file for the same interval", () => {
    expect(rotatedFileName("1d")(null)).toBe("executions.jsonl");
    expect(rotatedFileName("1d")(when, 1)).toBe("executions-2026-11-22.jsonl");
    expect(rotatedFileName("1d")(when, 2)).toBe("executions-2026-11-22.2.jsonl");
  });

  it("defaults to daily files kept 30 days, under .toolexec/logs", () => {
    expect([DEFAULT_LOG_INTERVAL, DEFAULT_LOG_MAX_FILES]).toEqual(["1d", 30]);
    const resolved = resolveExecutorOptions({ root: "/projects/demo" });
    expect(resolved.log).toMatchObject({ dir: path.resolve("/projects/demo", DEFAULT_LOG_PATH), interval: "1d", maxFiles: 30, maxValueBytes: 64 * 1024 });
  });
});

describe("isLogInterval", () => {
  const intervals = ["1s", "7s", "15s", "60s", "120s", "0s", "5m", "7m", "1h", "5h", "12h", "24h", "1d", "0d", "3d", "1M", "12M", "01d", "1w", "d", "1.5h"];

  it("agrees with rotating-file-stream on which intervals work", async () => {
    const project = createTempProject();
    for (const interval of intervals) {
      let accepted = true;
      try {
        const stream = createStream("probe.log", { path: project.path("probe"), interval });
        await new Promise<void>((resolve) => stream.once("close", () => resolve()).destroy());
      } catch {
        accepted = false;
      }
      expect({ interval, accepted: isLogInterval(interval) }).toEqual({ interval, accepted });
    }
  });
});
