/**
 * The log off the call path: a call hands its record over and batches reach the file within 1 s
 * without close(), scrubbed, as the call was (whatever the caller changes afterwards), for tool
 * crashes and plugins' writeLog records alike; a disk that falls behind costs records, never memory.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createExecutor, type Executor } from "../../src/index.js";
import type { ExecutorPlugin, PluginContext } from "../../src/plugin.js";
import { createExecutionLog } from "../../src/core/log/execution-log.js";
import { DEFAULT_REDACT_KEYS, REDACTED } from "../../src/core/log/redact.js";
import { createTempProject, toolEntry } from "../helpers/temp-project.js";
import { DEFAULT_LOG_PATH, executorOptions, readLogRecords, readLogText, recordingLogger, waitForLogRecords } from "./log-test-helpers.js";

/** The log's promise: a record is in the file within this long of its call, close() or not. */
const FLUSHED_WITHIN_MS = 1_000;
const TOKEN = "tok-batch-5f4e3d2c1b0a";

const open: Executor[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((executor) => executor.close()));
});

async function shellProject(tools: Record<string, { script: string; env?: Record<string, string> }>) {
  const project = createTempProject({
    tools: { tools: Object.entries(tools).map(([name, tool]) => toolEntry(name, "shell", `${name}.sh`, { parallel: true, ...(tool.env ? { env: tool.env } : {}) })) },
  });
  for (const [name, tool] of Object.entries(tools)) project.write(`tools/${name}.sh`, tool.script);
  const executor = await createExecutor(executorOptions(project));
  open.push(executor);
  return { executor, logDir: project.path(DEFAULT_LOG_PATH) };
}

/** A host plugin whose tool answers `value()` and, when asked, writes an audit record through writeLog and then changes it. */
function hostPlugin(value: () => unknown): ExecutorPlugin {
  let context: PluginContext;
  return {
    name: "host",
    async start(_entries, given) {
      context = given;
      return {
        listTools: () => [{ name: "answer", description: "Answers a fresh object.", inputSchema: { type: "object" } }],
        async callTool(call) {
          if (call.arguments.audit) {
            const record = { event: "host:audit", decision: { by: "alice", tools: ["answer"] } };
            context.writeLog!(record);
            record.decision.by = "mallory";
            record.decision.tools.push("everything");
          }
          return { ok: true, value: value() };
        },
        close: async () => {},
      };
    },
  };
}

describe("execution log batches", () => {
  it("writes a call's line within 1 s without close()", async () => {
    const { executor, logDir } = await shellProject({ echo: { script: "cat\n" } });
    const result = await executor.callTool("echo", { n: 1 });
    const records = await waitForLogRecords(logDir, (found) => found.length > 0, { since: Date.now(), withinMs: FLUSHED_WITHIN_MS });
    expect(records).toEqual([expect.objectContaining({ executionId: result.executionId, tool: "echo", ok: true, value: { n: 1 } })]);
  });

  it("logs a tool killed by a signal, without close()", async () => {
    const { executor, logDir } = await shellProject({ killed: { script: "echo 'going down' >&2\nkill -KILL $$\n" } });
    const result = await executor.callTool("killed", {});
    expect(result).toMatchObject({ ok: false, error: { code: "TOOL_FAILED" } });
    const records = await waitForLogRecords(logDir, (found) => found.length > 0, { since: Date.now(), withinMs: FLUSHED_WITHIN_MS });
    expect(records).toEqual([expect.objectContaining({ executionId: result.executionId, ok: false, error: expect.objectContaining({ code: "TOOL_FAILED", details: expect.objectContaining({ signal: "SIGKILL" }) }) })]);
  });

  it("scrubs env secrets from every line of a batch written without close()", async () => {
    const script = 'echo "token is $API_TOKEN" >&2\nprintf \'{"seen":"%s"}\' "$API_TOKEN"\n';
    const { executor, logDir } = await shellProject({ leak: { script, env: { API_TOKEN: TOKEN } } });
    const results = await Promise.all([1, 2, 3, 4, 5].map((n) => executor.callTool("leak", { n, note: `caller pasted ${TOKEN}` })));
    expect(results.map((result) => result.ok && result.value)).toEqual(Array(5).fill({ seen: TOKEN }));
    const records = await waitForLogRecords(logDir, (found) => found.length === 5, { since: Date.now(), withinMs: FLUSHED_WITHIN_MS });
    expect(readLogText(logDir)).not.toContain(TOKEN.slice(-8));
    for (const record of records) expect(record).toMatchObject({ value: { seen: REDACTED }, arguments: { note: `caller pasted ${REDACTED}` } });
  });

  it("logs a call as it was, whatever the caller changes after it returns", async () => {
    const project = createTempProject();
    const executor = await createExecutor(executorOptions(project, { toolsConfig: false, plugins: [hostPlugin(() => ({ items: ["original"], nested: { n: 1 } }))] }));
    open.push(executor);
    const result = await executor.callTool("answer", {});
    if (!result.ok) throw new Error(result.error.message);
    const value = result.value as { items: string[]; nested: { n: number } };
    value.items.push("added");
    value.nested.n = 2;
    const args = { query: "as passed" };
    const missing = await executor.callTool("no_such_tool", args);
    args.query = "changed";
    if (missing.ok) throw new Error("expected TOOL_NOT_FOUND");
    missing.error.message = "changed";
    await executor.close();
    const records = readLogRecords(project.path(DEFAULT_LOG_PATH));
    expect(records.map(({ tool, arguments: logged, value: returned, error }) => ({ tool, arguments: logged, value: returned, message: (error as { message?: string })?.message }))).toEqual([
      { tool: "answer", arguments: {}, value: { items: ["original"], nested: { n: 1 } }, message: undefined },
      { tool: "no_such_tool", arguments: { query: "as passed" }, value: undefined, message: expect.stringContaining("No tool named") },
    ]);
  });

  it("writes a plugin's writeLog record in the same batches, as it was when written", async () => {
    const project = createTempProject();
    const executor = await createExecutor(executorOptions(project, { toolsConfig: false, plugins: [hostPlugin(() => "done")] }));
    open.push(executor);
    const result = await executor.callTool("answer", { audit: true });
    const records = await waitForLogRecords(project.path(DEFAULT_LOG_PATH), (found) => found.length === 2, { since: Date.now(), withinMs: FLUSHED_WITHIN_MS });
    expect(records).toEqual([
      { time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), event: "host:audit", decision: { by: "alice", tools: ["answer"] } },
      expect.objectContaining({ executionId: result.executionId, tool: "answer", value: "done" }),
    ]);
  });
});

describe("createExecutionLog when the disk falls behind", () => {
  it("drops records past its bound rather than hold them, warns once, and counts them in the file", async () => {
    const project = createTempProject();
    const logger = recordingLogger();
    const log = createExecutionLog({ dir: project.path("logs"), interval: "1d", maxFiles: 3, redactKeys: DEFAULT_REDACT_KEYS, maxValueBytes: 1000, logger, maxQueuedChars: 1000 });
    // One tick: nothing can reach the disk in between, so the queue holds what its bound allows.
    for (let n = 0; n < 50; n++) log.write({ executionId: `id-${n}`, padding: "p".repeat(60) });
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(logger.warn.mock.calls[0]![0]).toMatch(/^Execution log: the disk is behind; records are dropped until it catches up/);
    await log.close();
    const records = readLogRecords(project.path("logs"));
    const kept = records.filter((record) => record.executionId !== undefined);
    // Each record holds about 100 characters: ten fit in 1000, the oldest ten, in order.
    expect(kept.map((record) => record.executionId)).toEqual(Array.from({ length: kept.length }, (_, n) => `id-${n}`));
    expect(kept.length).toBeGreaterThanOrEqual(9);
    expect(records.at(-1)).toEqual({ time: expect.any(String), event: "log:dropped", dropped: 50 - kept.length });
  });
});
