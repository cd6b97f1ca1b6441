/**
 * A call whose answer is a wide record does not stall the host through the execution log: the log
 * snapshots the answer as JSON text on the call path (one native serialization, the reference
 * here) and redacts it in its flush, a slice of a few ms at a time. Before, the whole record was
 * redacted and bounded on the call path: for 100,000 keys a walk for echoed secrets and a preview,
 * several times the snapshot's cost in one stretch. The line still comes out complete, in order,
 * with no secret in it.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExecutionLog } from "../../src/core/log/execution-log.js";
import { DEFAULT_REDACT_KEYS } from "../../src/core/log/redact.js";
import { createExecutor, type Executor, type ExecutorPlugin } from "../../src/index.js";
import { measureStall } from "../helpers/event-loop-stall.js";
import { readLogRecords, recordingLogger } from "./log-test-helpers.js";

const BOUND_MS = 50;
const KEYS = 100_000;
const MAX_VALUE_BYTES = 64 * 1024;
const PASSWORD = "pw-hunter2-at-the-end";

/** `KEYS` keys: the first echoes the password argument, a secret-looking key sits at the end. */
function wideAnswer(): Record<string, unknown> {
  const wide: Record<string, unknown> = { echoed: PASSWORD };
  for (let index = 0; index < KEYS - 3; index++) wide[`field_name_${index}`] = index === 12 ? `says ${PASSWORD} here` : `value ${index}`;
  wide.nested = { api_key: 123456789 };
  wide.session_id = "sid-0a1b2c3d4e5f";
  return wide;
}

/** Built once: the tool's own work (building the object) is not what is measured. */
const ANSWER = wideAnswer();

function widePlugin(): ExecutorPlugin {
  return {
    name: "wide",
    async start() {
      return {
        listTools: () => [
          { name: "answer", description: "Answers an object of many keys.", inputSchema: { type: "object" }, parallel: true },
          { name: "small", description: "Answers its arguments.", inputSchema: { type: "object" }, parallel: true },
          { name: "mark", description: "Marks its arguments object and answers it.", inputSchema: { type: "object" }, parallel: true },
        ],
        async callTool(call) {
          if (call.name === "mark") return { ok: true, value: Object.assign(call.arguments, { marked: true }) };
          return { ok: true, value: call.name === "answer" ? ANSWER : call.arguments };
        },
        async close() {},
      };
    },
  };
}

let dir: string;
let executor: Executor;
beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "log-stall-"));
  executor = await createExecutor({ toolsConfig: false, mcpConfig: false, watch: false, logDir: dir, log: { maxValueBytes: MAX_VALUE_BYTES }, logger: recordingLogger(), plugins: [widePlugin()] });
});
afterAll(async () => {
  await executor?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Waits until the log file holds a line for `executionId` (the flush is at most 200 ms behind the call). */
async function loggedLine(executionId: string): Promise<void> {
  const file = path.join(dir, "executions.jsonl");
  while (!(existsSync(file) && readFileSync(file, "utf8").includes(executionId))) await sleep(20);
}

describe("execution log on a wide answer", () => {
  it("logs a 100,000-key answer without stalling the host beyond its snapshot, in order, secrets hidden", async () => {
    const stall = await measureStall(
      async () => {
        const result = await executor.callTool("answer", { password: PASSWORD });
        await loggedLine(result.executionId);
        return result;
      },
      { boundMs: BOUND_MS, attempts: 5, reference: () => void JSON.stringify(ANSWER) },
    );
    expect(stall.value.ok ? stall.value : JSON.stringify(stall.value).slice(0, 500)).toMatchObject({ ok: true });
    // 50 ms beyond the snapshot when quiet; when both cores are busy every step stretches with the
    // snapshot itself, and the bound is then half the reference's own stall. Redacting the record on
    // the call path cost about twice the snapshot again in one stretch, past either.
    expect(stall.attributableMs).toBeLessThanOrEqual(Math.max(BOUND_MS, stall.baselineMs / 2));

    const before = await executor.callTool("small", { n: 1 });
    const wide = await executor.callTool("answer", { password: PASSWORD });
    const after = await executor.callTool("small", { n: 2 });
    await loggedLine(after.executionId);
    const records = readLogRecords(dir);
    const ids = records.map((record) => record.executionId);
    expect(ids.slice(-3)).toEqual([before.executionId, wide.executionId, after.executionId]);
    const text = readFileSync(path.join(dir, "executions.jsonl"), "utf8");
    for (const secret of ["hunter2", "123456789", "sid-0a1b2c3d4e5f"]) expect(text).not.toContain(secret);
    const record = records.at(-2)!;
    expect(record.arguments).toEqual({ password: "[REDACTED]" });
    const value = record.value as { truncated: boolean; bytes: number; preview: string };
    expect(value).toMatchObject({ truncated: true, bytes: Buffer.byteLength(JSON.stringify(ANSWER)) });
    expect(Buffer.byteLength(value.preview)).toBe(MAX_VALUE_BYTES);
    expect(value.preview.startsWith('{"echoed":"[REDACTED]","field_name_0":"value 0"')).toBe(true);
    expect(value.preview).toContain('"field_name_12":"says [REDACTED] here"');
  }, 300_000);

  it("logs the arguments as called and the value as answered when a tool answers its own changed arguments object", async () => {
    const args = Object.fromEntries(Array.from({ length: 2000 }, (_, index) => [`key_${index}`, `text ${index}`]));
    const result = await executor.callTool("mark", args);
    await loggedLine(result.executionId);
    const record = readLogRecords(dir).find((candidate) => candidate.executionId === result.executionId)!;
    expect(record.arguments).toEqual(args);
    expect(record.value).toEqual({ ...args, marked: true });
  });

  it("writes a large record still waiting on close(), between the records around it", async () => {
    const closeDir = mkdtempSync(path.join(tmpdir(), "log-close-"));
    try {
      const log = createExecutionLog({ dir: closeDir, interval: "1d", maxFiles: 3, redactKeys: DEFAULT_REDACT_KEYS, maxValueBytes: MAX_VALUE_BYTES, logger: recordingLogger() });
      log.write({ executionId: "first", tool: "small", ok: true, value: 1 });
      log.write({ executionId: "wide", tool: "answer", arguments: { password: PASSWORD }, ok: true, value: ANSWER });
      log.write({ executionId: "last", tool: "small", ok: true, value: 2 });
      await log.close();
      const records = readLogRecords(closeDir);
      expect(records.map((record) => record.executionId)).toEqual(["first", "wide", "last"]);
      expect(records[1]!.value).toMatchObject({ truncated: true });
      expect(readFileSync(path.join(closeDir, "executions.jsonl"), "utf8")).not.toContain("hunter2");
    } finally {
      rmSync(closeDir, { recursive: true, force: true });
    }
  });
});
