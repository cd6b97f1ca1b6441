/** What one log line holds, through createExecutor with real scripts: successes, each kind of failure, sub-calls, big values. */
import { afterEach, describe, expect, it } from "vitest";
import { createExecutor, type Executor, type ToolResult } from "../../src/index.js";
import { createTempProject, toolEntry } from "../helpers/temp-project.js";
import { DEFAULT_LOG_PATH, executorOptions, readLogRecords, readLogText } from "./log-test-helpers.js";

const ECHO_PY = "import json, sys\njson.dump(json.load(sys.stdin), sys.stdout)\n";
const EXIT_2_SH = 'echo "disk on fire" >&2\nexit 2\n';
/** Prints `size` letters as a JSON string; the size comes in the arguments. */
const HUGE_OUTPUT_PY = 'import json, sys\nprint(json.dumps("x" * json.load(sys.stdin)["size"]))\n';

const open: Executor[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((executor) => executor.close()));
});

/** A project with echo (python), exit-2 (bash) and huge-output (python), its executor, and its log folder. */
async function loggedProject(log: { maxValueBytes?: number } = {}) {
  const project = createTempProject({
    tools: {
      tools: [
        toolEntry("echo", "python", "echo.py", { timeoutMs: 7000 }),
        toolEntry("needs_name", "python", "echo.py", { inputSchema: { type: "object", required: ["name"], properties: { name: { type: "string" } } } }),
        toolEntry("exit_2", "shell", "exit-2.sh"),
        toolEntry("huge_output", "python", "huge-output.py"),
        toolEntry("forever", "shell", "forever.sh", { timeoutMs: 300 }),
      ],
    },
  });
  project.write("tools/echo.py", ECHO_PY);
  project.write("tools/exit-2.sh", EXIT_2_SH);
  project.write("tools/huge-output.py", HUGE_OUTPUT_PY);
  project.write("tools/forever.sh", "sleep 30\n");
  const executor = await createExecutor(executorOptions(project, { log }));
  open.push(executor);
  return { project, executor, logDir: project.path(DEFAULT_LOG_PATH) };
}

/** Close (which flushes) and return the records. */
async function closeAndRead(executor: Executor, logDir: string) {
  await executor.close();
  return readLogRecords(logDir);
}

describe("execution log records", () => {
  it("writes one JSON line per successful call with ids, tool, plugin, arguments, value and timings", async () => {
    const { executor, logDir } = await loggedProject();
    const before = Date.now();
    const result = await executor.callTool("echo", { city: "Lyon", days: 3 });
    const after = Date.now();
    const records = await closeAndRead(executor, logDir);

    expect(records).toHaveLength(1);
    const [record] = records;
    expect(record).toEqual({
      time: expect.any(String),
      executionId: result.executionId,
      tool: "echo",
      plugin: "script",
      arguments: { city: "Lyon", days: 3 },
      ok: true,
      value: { city: "Lyon", days: 3 },
      durationMs: result.durationMs,
      timeoutMs: 7000,
    });
    // `time` is the start of the call, as ISO 8601 in UTC.
    expect(record!.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const started = Date.parse(record!.time as string);
    expect(started).toBeGreaterThanOrEqual(before);
    expect(started).toBeLessThanOrEqual(after);
    expect(record!.durationMs as number).toBeGreaterThan(0);
  });

  it("writes each call on its own line, in the order the calls finish", async () => {
    const { executor, logDir } = await loggedProject();
    const results: ToolResult[] = [];
    for (const n of [1, 2, 3]) results.push(await executor.callTool("echo", { n }));
    const records = await closeAndRead(executor, logDir);
    expect(records.map((record) => record.executionId)).toEqual(results.map((result) => result.executionId));
    expect(records.map((record) => record.arguments)).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    expect(new Set(records.map((record) => record.executionId)).size).toBe(3);
  });

  it("logs an unknown tool as TOOL_NOT_FOUND with no plugin and no timeout", async () => {
    const { executor, logDir } = await loggedProject();
    const result = await executor.callTool("ecko", { a: 1 });
    expect(result.ok).toBe(false);
    const [record] = await closeAndRead(executor, logDir);
    expect(record).toMatchObject({ executionId: result.executionId, tool: "ecko", plugin: null, arguments: { a: 1 }, ok: false });
    expect(record!.error).toMatchObject({ code: "TOOL_NOT_FOUND", message: 'No tool named "ecko"; did you mean "echo"?' });
    expect(record).not.toHaveProperty("value");
    expect(record).not.toHaveProperty("timeoutMs");
  });

  it("logs arguments that fail the input schema as INVALID_INPUT, with the arguments as given", async () => {
    const { executor, logDir } = await loggedProject();
    const result = await executor.callTool("needs_name", { nom: "Ada" });
    expect(result.ok).toBe(false);
    const [record] = await closeAndRead(executor, logDir);
    expect(record).toMatchObject({ executionId: result.executionId, tool: "needs_name", plugin: "script", arguments: { nom: "Ada" }, ok: false });
    expect(record!.error).toMatchObject({ code: "INVALID_INPUT" });
  });

  it("logs arguments that are not an object as INVALID_INPUT", async () => {
    const { executor, logDir } = await loggedProject();
    await executor.callTool("echo", ["not", "an", "object"]);
    const [record] = await closeAndRead(executor, logDir);
    expect(record).toMatchObject({ tool: "echo", arguments: ["not", "an", "object"], ok: false, error: { code: "INVALID_INPUT" } });
  });

  it("logs a script that exits non-zero as TOOL_FAILED with its exit code and stderr", async () => {
    const { executor, logDir } = await loggedProject();
    const result = await executor.callTool("exit_2", {});
    expect(result.ok).toBe(false);
    const [record] = await closeAndRead(executor, logDir);
    expect(record).toMatchObject({ executionId: result.executionId, tool: "exit_2", plugin: "script", arguments: {}, ok: false, timeoutMs: 30_000 });
    expect(record!.error).toMatchObject({
      code: "TOOL_FAILED",
      message: "tools/exit-2.sh exited with code 2: disk on fire",
      details: { exitCode: 2, stderr: "disk on fire\n" },
    });
  });

  it("logs a call that runs past its deadline as TIMEOUT, with the budget it had", async () => {
    const { executor, logDir } = await loggedProject();
    const result = await executor.callTool("forever", {});
    expect(result.ok).toBe(false);
    const [record] = await closeAndRead(executor, logDir);
    expect(record).toMatchObject({ executionId: result.executionId, tool: "forever", ok: false, timeoutMs: 300, error: { code: "TIMEOUT", details: { timeoutMs: 300 } } });
    expect(record!.durationMs as number).toBeGreaterThanOrEqual(300);
  });

  it("records parentExecutionId when a call passes one", async () => {
    const { executor, logDir } = await loggedProject();
    const parent = await executor.callTool("echo", { step: "parent" });
    const child = await executor.callTool("echo", { step: "child" }, { parentExecutionId: parent.executionId });
    const failedChild = await executor.callTool("missing", {}, { parentExecutionId: parent.executionId });
    const records = await closeAndRead(executor, logDir);
    expect(records[0]).not.toHaveProperty("parentExecutionId");
    expect(records[1]).toMatchObject({ executionId: child.executionId, parentExecutionId: parent.executionId });
    expect(records[2]).toMatchObject({ executionId: failedChild.executionId, parentExecutionId: parent.executionId, ok: false });
  });

  it("logs arguments that cannot be serialized, and keeps logging the calls after them", async () => {
    const { executor, logDir } = await loggedProject();
    const circular: Record<string, unknown> = { name: "loop" };
    circular.self = circular;
    const withBigInt = await executor.callTool("echo", { count: 10n ** 20n });
    const withCycle = await executor.callTool("echo", circular);
    const fine = await executor.callTool("echo", { after: true });
    expect([withBigInt.ok, withCycle.ok, fine.ok]).toEqual([false, false, true]);
    const records = await closeAndRead(executor, logDir);
    expect(records.map((record) => record.executionId)).toEqual([withBigInt.executionId, withCycle.executionId, fine.executionId]);
    expect(records[0]).toMatchObject({ arguments: { count: "100000000000000000000" }, error: { code: "INVALID_INPUT" } });
    expect(records[1]).toMatchObject({ arguments: { name: "loop", self: "[Circular]" }, error: { code: "INVALID_INPUT" } });
  });
});

describe("execution log size bounds", () => {
  it("logs a value over maxValueBytes as a preview of its first bytes, while the caller gets it whole", async () => {
    const { executor, logDir } = await loggedProject({ maxValueBytes: 1000 });
    const result = await executor.callTool("huge_output", { size: 50_000 });
    expect(result.ok && (result.value as string).length).toBe(50_000);
    const [record] = await closeAndRead(executor, logDir);
    expect(record!.value).toEqual({ truncated: true, bytes: 50_000, preview: "x".repeat(1000) });
    expect(record!.arguments).toEqual({ size: 50_000 });
    expect(readLogText(logDir).length).toBeLessThan(2000);
  });

  it("truncates big arguments too, and measures JSON values by their JSON text", async () => {
    const { executor, logDir } = await loggedProject({ maxValueBytes: 200 });
    const rows = Array.from({ length: 100 }, (_, index) => ({ id: index, label: `row ${index}` }));
    await executor.callTool("echo", { rows });
    const [record] = await closeAndRead(executor, logDir);
    const json = JSON.stringify({ rows });
    for (const field of ["arguments", "value"]) {
      expect(record![field]).toEqual({ truncated: true, bytes: Buffer.byteLength(json), preview: json.slice(0, 200) });
    }
  });

  it("keeps values at or under maxValueBytes whole", async () => {
    const { executor, logDir } = await loggedProject({ maxValueBytes: 1000 });
    await executor.callTool("huge_output", { size: 1000 });
    await executor.callTool("huge_output", { size: 1001 });
    const [atBound, overBound] = await closeAndRead(executor, logDir);
    expect(atBound!.value).toBe("x".repeat(1000));
    expect(overBound!.value).toMatchObject({ truncated: true, bytes: 1001 });
  });

  it("uses 64 KiB as the default bound", async () => {
    const { executor, logDir } = await loggedProject();
    await executor.callTool("huge_output", { size: 200_000 });
    const [record] = await closeAndRead(executor, logDir);
    expect(record!.value).toMatchObject({ truncated: true, bytes: 200_000 });
    expect((record!.value as { preview: string }).preview).toHaveLength(64 * 1024);
  });
});
