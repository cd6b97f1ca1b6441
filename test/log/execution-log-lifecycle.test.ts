/** When the log exists: never with logDir false, not before the first call, complete after close(), and gone with the process. */
import { spawn } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { createExecutor, type Executor } from "../../src/index.js";
import { createExecutionLog } from "../../src/core/log/execution-log.js";
import { DEFAULT_REDACT_KEYS, REDACTED } from "../../src/core/log/redact.js";
import { createTempProject, toolEntry, type TempProject } from "../helpers/temp-project.js";
import { DEFAULT_LOG_PATH, executorOptions, readLogRecords, recordingLogger } from "./log-test-helpers.js";

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

const open: Executor[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((executor) => executor.close()));
});

function echoProject() {
  const project = createTempProject({ tools: { tools: [toolEntry("echo", "shell", "echo.sh", { parallel: true })] } });
  project.write("tools/echo.sh", "cat\n");
  return project;
}

/** Every file under the project, relative, sorted. */
function filesOf(project: TempProject): string[] {
  return (readdirSync(project.root, { recursive: true }) as string[]).sort();
}

describe("execution log lifecycle", () => {
  it("writes nothing at all with logDir: false", async () => {
    const project = echoProject();
    const before = filesOf(project);
    const executor = await createExecutor(executorOptions(project, { logDir: false }));
    open.push(executor);
    await executor.callTool("echo", { n: 1 });
    await executor.callTool("missing", {});
    await executor.close();
    expect(filesOf(project)).toEqual(before);
  });

  it("creates no folder or file before the first call", async () => {
    const project = echoProject();
    const executor = await createExecutor(executorOptions(project));
    open.push(executor);
    await executor.listTools();
    expect(existsSync(project.path(".toolexec"))).toBe(false);
    await executor.callTool("echo", {});
    await executor.close();
    expect(readdirSync(project.path(DEFAULT_LOG_PATH))).toEqual(["executions.jsonl"]);
  });

  it("leaves no file behind for an executor closed without a call", async () => {
    const project = echoProject();
    const executor = await createExecutor(executorOptions(project, { logDir: "custom/logs" }));
    await executor.close();
    expect(existsSync(project.path("custom"))).toBe(false);
  });

  it("writes to logDir relative to the project root", async () => {
    const project = echoProject();
    const executor = await createExecutor(executorOptions(project, { logDir: "custom/logs" }));
    open.push(executor);
    const result = await executor.callTool("echo", {});
    await executor.close();
    expect(readLogRecords(project.path("custom/logs")).map((record) => record.executionId)).toEqual([result.executionId]);
  });

  it("has every record on disk once close() resolves", async () => {
    const project = echoProject();
    const executor = await createExecutor(executorOptions(project));
    open.push(executor);
    const results = await Promise.all(Array.from({ length: 40 }, (_, n) => executor.callTool("echo", { n, padding: "p".repeat(2000) })));
    await executor.close();
    const records = readLogRecords(project.path(DEFAULT_LOG_PATH));
    expect(records.map((record) => record.executionId).sort()).toEqual(results.map((result) => result.executionId).sort());
  });

  // Fails today: Executor.close() closes the log while a call it aborted is still settling, so that
  // call's record is dropped. The fix belongs in create-executor.ts (see the report); flip to `it` then.
  it("logs a call that close() cut short", async () => {
    const project = echoProject();
    project.write("tools/forever.sh", "sleep 30\n");
    project.write("tools.json", { tools: [toolEntry("forever", "shell", "forever.sh")] });
    const executor = await createExecutor(executorOptions(project));
    open.push(executor);
    const started = new Promise<void>((resolve) => executor.on("tool:start", () => resolve()));
    const pending = executor.callTool("forever", {});
    await started;
    await executor.close();
    const result = await pending;
    expect(result).toMatchObject({ ok: false, error: { code: "EXECUTOR_CLOSED" } });
    expect(readLogRecords(project.path(DEFAULT_LOG_PATH))).toMatchObject([{ executionId: result.executionId, ok: false, error: { code: "EXECUTOR_CLOSED" } }]);
  });

  it("lets the process exit by itself after close()", async () => {
    const project = echoProject();
    const script = project.write(
      "run-and-close.mts",
      `import { readdirSync, readFileSync } from "node:fs";
import { createExecutor } from ${JSON.stringify(pathToFileURL(path.join(REPO_ROOT, "src/index.ts")).href)};
const root = process.argv[2];
const executor = await createExecutor({ root, log: { interval: "1s" } });
for (let n = 0; n < 3; n++) await executor.callTool("echo", { n });
await executor.close();
// The 1 s interval can rotate between calls on a busy machine: count the lines of every file.
const folder = root + "/${DEFAULT_LOG_PATH}";
const files = readdirSync(folder).filter((name) => /^executions.*\\.jsonl$/.test(name));
const lines = files.map((name) => readFileSync(folder + "/" + name, "utf8").split("\\n").filter(Boolean).length).reduce((sum, count) => sum + count, 0);
console.log(JSON.stringify({ closedAt: Date.now(), lines }));
`,
    );
    const outcome = await new Promise<{ code: number | null; stdout: string; stderr: string; exitedAt: number }>((resolve, reject) => {
      const child = spawn(process.execPath, ["--import", "tsx", script, project.root], { cwd: REPO_ROOT, stdio: ["ignore", "pipe", "pipe"] });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (chunk: Buffer) => (stdout += chunk));
      child.stderr.on("data", (chunk: Buffer) => (stderr += chunk));
      const hung = setTimeout(() => {
        child.kill("SIGKILL");
        reject(new Error(`The process did not exit within 15 s. stdout: ${stdout} stderr: ${stderr}`));
      }, 15_000);
      child.on("error", reject);
      child.on("exit", (code) => {
        clearTimeout(hung);
        resolve({ code, stdout, stderr, exitedAt: Date.now() });
      });
    });
    expect(outcome.stderr).toBe("");
    expect(outcome.code).toBe(0);
    const report = JSON.parse(outcome.stdout) as { closedAt: number; lines: number };
    expect(report.lines).toBe(3);
    // Nothing (rotation timer, file handle, watcher) kept the event loop alive after close(). A
    // handle left referenced would keep it alive for good (the 1 s rotation timer re-arms itself);
    // the bound is a few intervals wide so that one slow exit on a busy machine does not fail it.
    expect(outcome.exitedAt - report.closedAt).toBeLessThan(3_000);
  }, 20_000);
});

describe("createExecutionLog", () => {
  const logOptions = (dir: string) => ({ dir, interval: "1d", maxFiles: 3, redactKeys: DEFAULT_REDACT_KEYS, maxValueBytes: 1000, logger: recordingLogger() });

  it("flushes every record written in one tick before close() resolves", async () => {
    const project = createTempProject();
    const log = createExecutionLog(logOptions(project.path("logs")));
    for (let n = 0; n < 2000; n++) log.write({ executionId: `id-${n}`, tool: "t", ok: true, value: { n } });
    await log.close();
    const records = readLogRecords(project.path("logs"));
    expect(records).toHaveLength(2000);
    expect(records[1999]).toEqual({ executionId: "id-1999", tool: "t", ok: true, value: { n: 1999 } });
  });

  it("can be closed twice, and drops writes after close", async () => {
    const project = createTempProject();
    const log = createExecutionLog(logOptions(project.path("logs")));
    log.write({ n: 1 });
    const first = log.close();
    expect(log.close()).toBe(first);
    log.write({ n: 2 });
    await first;
    expect(readLogRecords(project.path("logs"))).toEqual([{ n: 1 }]);
  });

  it("closes at once when nothing was written, creating nothing", async () => {
    const project = createTempProject();
    const log = createExecutionLog(logOptions(project.path("logs")));
    await log.close();
    expect(existsSync(project.path("logs"))).toBe(false);
  });

  it("keeps the ids and outcome of a record whose value cannot be serialized", async () => {
    const project = createTempProject();
    const options = logOptions(project.path("logs"));
    const log = createExecutionLog(options);
    const hostile = {
      get explosive() {
        throw new Error("getter exploded");
      },
    };
    log.write({ executionId: "a", tool: "t", ok: true, value: hostile });
    log.write({ executionId: "b", tool: "t", ok: true, value: 1 });
    await log.close();
    expect(readLogRecords(project.path("logs"))).toEqual([
      { executionId: "a", tool: "t", ok: true, logError: "This record could not be serialized: getter exploded" },
      { executionId: "b", tool: "t", ok: true, value: 1 },
    ]);
    expect(options.logger.warn).not.toHaveBeenCalled();
  });

  it("hides secrets in the payload only, never in ids and timings", async () => {
    const project = createTempProject();
    const log = createExecutionLog(logOptions(project.path("logs")));
    const metadata = { time: "2026-11-22T10:00:00.100Z", executionId: "5f1a-100b", parentExecutionId: "e100", tool: "count100", plugin: "p100", ok: true, durationMs: 100, timeoutMs: 1000 };
    log.write({ ...metadata, arguments: { limit: 100, text: "top 100" }, value: ["100 rows"], error: { code: "X", message: "over 100" } }, ["100"]);
    await log.close();
    expect(readLogRecords(project.path("logs"))).toEqual([
      { ...metadata, arguments: { limit: REDACTED, text: `top ${REDACTED}` }, value: [`${REDACTED} rows`], error: { code: "X", message: `over ${REDACTED}` } },
    ]);
  });

  it("bounds an error's details, keeping its code and message", async () => {
    const project = createTempProject();
    const log = createExecutionLog(logOptions(project.path("logs")));
    log.write({ ok: false, error: { code: "TOOL_FAILED", message: "boom", details: { stderr: "e".repeat(5000) } } });
    await log.close();
    const [record] = readLogRecords(project.path("logs"));
    expect(record!.error).toEqual({ code: "TOOL_FAILED", message: "boom", details: { truncated: true, bytes: 5013, preview: `{"stderr":"${"e".repeat(1000 - 11)}` } });
  });

  it("cuts a preview on a character boundary", async () => {
    const project = createTempProject();
    const log = createExecutionLog(logOptions(project.path("logs")));
    // 999 ASCII bytes, then a 3-byte character that would straddle the 1000-byte cut.
    log.write({ value: `${"a".repeat(999)}€€` });
    await log.close();
    const [record] = readLogRecords(project.path("logs"));
    expect(record!.value).toEqual({ truncated: true, bytes: 1005, preview: "a".repeat(999) });
  });
});
