/** A log that cannot be written never fails a call: it warns once, through the host's logger, and goes quiet. */
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createExecutor, type Executor } from "../../src/index.js";
import { createExecutionLog } from "../../src/core/log/execution-log.js";
import { DEFAULT_REDACT_KEYS } from "../../src/core/log/redact.js";
import { createTempProject, toolEntry } from "../helpers/temp-project.js";
import { recordingLogger } from "./log-test-helpers.js";

const open: Executor[] = [];
const stray: unknown[] = [];
const collect = (error: unknown) => stray.push(error);

beforeEach(() => {
  process.on("unhandledRejection", collect);
  process.on("uncaughtException", collect);
});

afterEach(async () => {
  await Promise.all(open.splice(0).map((executor) => executor.close()));
  process.off("unhandledRejection", collect);
  process.off("uncaughtException", collect);
  stray.length = 0;
});

/** A project whose log folder is blocked by a regular file, at `logDir` itself or above it. */
async function blockedProject(logDir: string) {
  const project = createTempProject({ tools: { tools: [toolEntry("echo", "shell", "echo.sh")] } });
  project.write("tools/echo.sh", "cat\n");
  project.write("blocker", "I am a file, not a folder\n");
  const logger = recordingLogger();
  const executor = await createExecutor({ root: project.root, watch: false, logDir, logger });
  open.push(executor);
  return { executor, logger };
}

describe("execution log failures", () => {
  it.each([
    ["is a regular file", "blocker"],
    ["is under a regular file", "blocker/logs"],
  ])("keeps calls working when the log folder %s, with a single warning", async (_, logDir) => {
    const { executor, logger } = await blockedProject(logDir);
    const first = await executor.callTool("echo", { n: 1 });
    const rest = await Promise.all([2, 3, 4, 5].map((n) => executor.callTool("echo", { n })));
    // Give the stream time to report every failed write.
    await sleep(100);
    const last = await executor.callTool("echo", { n: 6 });

    for (const result of [first, ...rest, last]) expect(result).toMatchObject({ ok: true });
    expect(rest.map((result) => result.ok && result.value)).toEqual([{ n: 2 }, { n: 3 }, { n: 4 }, { n: 5 }]);
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(logger.warn.mock.calls[0]![0]).toMatch(/^Execution log disabled after an error; calls go on unlogged: ENOTDIR/);
    expect(logger.warn.mock.calls[0]![1]).toEqual({ dir: path.join(executor.root, logDir) });
    expect(logger.error).not.toHaveBeenCalled();
    await expect(executor.close()).resolves.toBeUndefined();
    expect(stray).toEqual([]);
  });

  it("keeps calls working when the stream cannot even be created (an interval it rejects)", async () => {
    const project = createTempProject();
    const logger = recordingLogger();
    const log = createExecutionLog({ dir: project.path("logs"), interval: "7s", maxFiles: 3, redactKeys: DEFAULT_REDACT_KEYS, maxValueBytes: 1000, logger });
    expect(() => log.write({ tool: "echo" })).not.toThrow();
    expect(() => log.write({ tool: "echo" })).not.toThrow();
    // The stream is created once rotating-file-stream has loaded, after the first record.
    await vi.waitFor(() => expect(logger.warn).toHaveBeenCalled(), { timeout: 5_000, interval: 5 });
    expect(() => log.write({ tool: "echo" })).not.toThrow();
    await expect(log.close()).resolves.toBeUndefined();
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(logger.warn.mock.calls[0]![0]).toContain("An integer divider of 60 is expected as seconds for 'options.interval'");
  });

  it("closes cleanly when the failure is still on its way", async () => {
    const project = createTempProject();
    project.write("blocker", "a file\n");
    const logger = recordingLogger();
    const log = createExecutionLog({ dir: project.path("blocker"), interval: "1d", maxFiles: 3, redactKeys: DEFAULT_REDACT_KEYS, maxValueBytes: 1000, logger });
    log.write({ tool: "echo" });
    // Closed in the same tick: the stream has not found out about the blocked folder yet.
    expect(logger.warn).not.toHaveBeenCalled();
    await expect(log.close()).resolves.toBeUndefined();
    // The failure still arrives after close(): wait for its warning rather than for a guessed time.
    await vi.waitFor(() => expect(logger.warn).toHaveBeenCalled(), { timeout: 2_000, interval: 5 });
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(stray).toEqual([]);
  });
});
