/**
 * Deadlines, cancels, output caps and close: the call answers on time and the script's whole
 * process tree (grandchildren included) is gone afterwards.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath, pathToFileURL } from "node:url";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { isToolexecError } from "../../src/index.js";
import { LATENESS_MARGIN_MS } from "../helpers/lateness-margin.js";
import { expectAllGone, killQuietly, projectWith, readPid, since, startExecutor, toolEntry } from "./script-test-helpers.js";

const REPOSITORY_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

/** Allowed lateness of an answer after its deadline, cancel or close; the trees themselves sleep 60 s. */
const TOLERANCE_MS = LATENESS_MARGIN_MS;
/** A bound well under the 10 s deadline of the tools that would otherwise be waited for. */
const BEFORE_DEADLINE_MS = 5_000;

describe("script tools: TIMEOUT", () => {
  it("kills a shell script and its grandchild at the deadline, keeping partial stdout", async () => {
    const project = projectWith([toolEntry("spawner", "shell", "spawn-grandchild.sh", { timeoutMs: 500 }), toolEntry("echo", "shell", "echo.sh")], ["spawn-grandchild.sh", "echo.sh"]);
    const executor = await startExecutor(project);
    // The first run loads the process library (execa): done first, so the budget goes to the script.
    await executor.callTool("echo", {});

    const started = performance.now();
    const result = await executor.callTool("spawner", {});
    const elapsed = since(started);

    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("TIMEOUT");
    expect(result.error.message.replace(/, \d+ ms after it started/, ", <ms> ms after it started")).toMatchInlineSnapshot(`"tools/spawn-grandchild.sh was still running at the call's deadline, <ms> ms after it started; its process tree was killed"`);
    expect(result.error.details).toMatchObject({ timeoutMs: 500, stdout: "started\n", stderr: "" });
    expect(elapsed).toBeGreaterThanOrEqual(500 - 1);
    expect(elapsed).toBeLessThan(500 + TOLERANCE_MS);
    expect(result.durationMs).toBeGreaterThanOrEqual(500 - 1);
    expect(result.durationMs).toBeLessThan(500 + TOLERANCE_MS);
    await expectAllGone([await readPid(project, "child.pid"), await readPid(project, "grandchild.pid")]);
  });

  it("kills a python script and the process it started, with a per-call timeoutMs", async () => {
    const project = projectWith([toolEntry("hang", "python", "partial-then-hang.py"), toolEntry("echo", "python", "echo.py")], ["partial-then-hang.py", "echo.py"]);
    const executor = await startExecutor(project);
    // Find the real interpreter first (pyenv shims are slow), so the budget goes to the script.
    await executor.callTool("echo", {});

    const started = performance.now();
    const result = await executor.callTool("hang", {}, { timeoutMs: 500 });
    const elapsed = since(started);

    expect(result.ok || result.error.code).toBe("TIMEOUT");
    expect(result.ok || result.error.details).toMatchObject({ timeoutMs: 500, stdout: '{"partial": tru\n' });
    expect(elapsed).toBeGreaterThanOrEqual(500 - 1);
    expect(elapsed).toBeLessThan(500 + TOLERANCE_MS);
    await expectAllGone([await readPid(project, "child.pid"), await readPid(project, "grandchild.pid")]);
  });

  it("answers at once, and kills the straggler, when a script exits but leaves a child holding stdout", async () => {
    const project = projectWith([toolEntry("leaver", "shell", "exit-leaving-child.sh", { timeoutMs: 10_000 })], ["exit-leaving-child.sh"]);
    const executor = await startExecutor(project);

    const started = performance.now();
    const result = await executor.callTool("leaver", {});
    const elapsed = since(started);

    expect(result).toMatchObject({ ok: true, value: { done: true } });
    expect(elapsed).toBeLessThan(BEFORE_DEADLINE_MS);
    await expectAllGone([await readPid(project, "grandchild.pid")]);
  });

  it("answers soon after the script exits even when an escaped child (own session) holds stdout and stderr", async () => {
    const project = projectWith([toolEntry("escaper", "shell", "escape-group.sh", { timeoutMs: 10_000 })], ["escape-group.sh"]);
    const executor = await startExecutor(project);

    const started = performance.now();
    const result = await executor.callTool("escaper", {});
    const elapsed = since(started);
    const escaped = await readPid(project, "grandchild.pid");
    killQuietly(escaped);

    expect(result).toMatchObject({ ok: true, value: { done: true } });
    // The script takes ~100 ms; the pipes get a short drain period after it exits, not the deadline.
    expect(elapsed).toBeLessThan(BEFORE_DEADLINE_MS);
  });
});

describe("script tools: CANCELLED", () => {
  it("kills the tree when the caller's signal aborts mid-run, keeping partial stdout", async () => {
    const project = projectWith([toolEntry("spawner", "shell", "spawn-grandchild.sh")], ["spawn-grandchild.sh"]);
    const executor = await startExecutor(project);
    const controller = new AbortController();

    const call = executor.callTool("spawner", { reportRead: true }, { signal: controller.signal });
    const pids = [await readPid(project, "child.pid"), await readPid(project, "grandchild.pid")];
    // The script says when the host has read its first line, which a cancel must keep.
    await waitForFile(project.path("stdout-read"));
    const abortedAt = performance.now();
    controller.abort();
    const result = await call;
    const elapsed = since(abortedAt);

    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("CANCELLED");
    expect(result.error.message).toMatchInlineSnapshot(`"tools/spawn-grandchild.sh was cancelled; its process tree was killed"`);
    expect(result.error.details).toMatchObject({ stdout: "started\n" });
    expect(elapsed).toBeLessThan(TOLERANCE_MS);
    await expectAllGone(pids);
  });

  it("does not start the script when the signal is already aborted", async () => {
    const project = projectWith([toolEntry("marker", "python", "touch-marker.py")], ["touch-marker.py"]);
    const executor = await startExecutor(project);

    const result = await executor.callTool("marker", {}, { signal: AbortSignal.abort() });

    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("CANCELLED");
    expect(result.error.message).toMatchInlineSnapshot(`""marker" was cancelled before it started"`);
    expect(existsSync(project.path("marker"))).toBe(false);
  });

  it("leaves the queue without starting when cancelled while waiting for its turn", async () => {
    const project = projectWith([toolEntry("serial", "shell", "record-turn.sh")], ["record-turn.sh"]);
    const executor = await startExecutor(project);
    const controller = new AbortController();

    const first = executor.callTool("serial", { id: "first", seconds: "0.4" });
    const second = executor.callTool("serial", { id: "second" }, { signal: controller.signal });
    await waitForFile(project.path("turns.log"));
    controller.abort();

    expect(await second).toMatchObject({ ok: false, error: { code: "CANCELLED" } });
    expect(await first).toMatchObject({ ok: true, value: "first" });
    expect(readFileSync(project.path("turns.log"), "utf8")).toBe("start first\nend first\n");
  });
});

describe("script tools: OUTPUT_TOO_LARGE", () => {
  it("kills a script that floods stdout past maxOutputBytes and answers promptly", async () => {
    const project = projectWith([toolEntry("flood", "python", "huge-output.py", { maxOutputBytes: 100_000, timeoutMs: 10_000 })], ["huge-output.py"]);
    const executor = await startExecutor(project);

    const started = performance.now();
    const result = await executor.callTool("flood", {});
    const elapsed = since(started);

    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("OUTPUT_TOO_LARGE");
    expect(result.error.message).toMatchInlineSnapshot(`"tools/huge-output.py printed more than 100000 bytes on stdout; it was killed"`);
    expect(result.error.details).toMatchObject({ maxOutputBytes: 100_000 });
    expect(elapsed).toBeLessThan(BEFORE_DEADLINE_MS);
    await expectAllGone([await readPid(project, "child.pid")]);
  });

  it("accepts output of exactly maxOutputBytes and rejects one byte more", async () => {
    const project = projectWith(
      [
        toolEntry("at_limit", "python", "print-bytes.py", { args: ["1000"], maxOutputBytes: 1000 }),
        toolEntry("over_limit", "python", "print-bytes.py", { args: ["1001"], maxOutputBytes: 1000 }),
      ],
      ["print-bytes.py"],
    );
    const executor = await startExecutor(project);

    const atLimit = await executor.callTool("at_limit", {});
    const overLimit = await executor.callTool("over_limit", {});

    expect(atLimit).toMatchObject({ ok: true, value: "x".repeat(1000) });
    expect(overLimit).toMatchObject({ ok: false, error: { code: "OUTPUT_TOO_LARGE" } });
  });
});

describe("script tools: executor.close()", () => {
  it("ends a running call with EXECUTOR_CLOSED and kills its tree; later calls throw", async () => {
    const project = projectWith([toolEntry("spawner", "shell", "spawn-grandchild.sh")], ["spawn-grandchild.sh"]);
    const executor = await startExecutor(project);

    const call = executor.callTool("spawner", {});
    const pids = [await readPid(project, "child.pid"), await readPid(project, "grandchild.pid")];
    const closedAt = performance.now();
    await executor.close();
    const result = await call;

    expect(since(closedAt)).toBeLessThan(TOLERANCE_MS);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("EXECUTOR_CLOSED");
    expect(result.error.message).toMatchInlineSnapshot(`"tools/spawn-grandchild.sh was stopped because the executor closed; its process tree was killed"`);
    await expectAllGone(pids);

    const after = executor.callTool("spawner", {});
    await expect(after).rejects.toSatisfy((error) => isToolexecError(error) && error.code === "EXECUTOR_CLOSED");
    await expect(after).rejects.toThrowErrorMatchingInlineSnapshot(`[ToolexecError: Cannot call "spawner": the executor is closed]`);
  });
});

describe("script tools: host exit", () => {
  it("kills the process trees still running when the host process exits", async () => {
    const project = projectWith([toolEntry("spawner", "shell", "spawn-grandchild.sh")], ["spawn-grandchild.sh"]);
    const index = path.join(REPOSITORY_ROOT, "src", "index.ts");
    const host = project.write(
      "host.mjs",
      [
        `import { readFileSync } from "node:fs";`,
        // The pid file is created before the shell writes the pid into it: waiting only for the file
        // to exist let the host exit (and kill the tree) in between, leaving the file empty.
        `const written = (file) => { try { return readFileSync(file, "utf8").trim() !== ""; } catch { return false; } };`,
        `import { createExecutor } from ${JSON.stringify(pathToFileURL(index).href)};`,
        `const executor = await createExecutor({ root: ${JSON.stringify(project.root)}, watch: false, logDir: false });`,
        `void executor.callTool("spawner", {});`,
        `while (!written(${JSON.stringify(project.path("child.pid"))})) await new Promise((resolve) => setTimeout(resolve, 10));`,
        `process.exit(0);`,
      ].join("\n"),
    );

    await execa(process.execPath, ["--import", "tsx", host], { cwd: REPOSITORY_ROOT, timeout: 15_000 });

    await expectAllGone([await readPid(project, "child.pid"), await readPid(project, "grandchild.pid")]);
  });
});

async function waitForFile(file: string, withinMs = 10_000): Promise<void> {
  const until = Date.now() + withinMs;
  while (!existsSync(file)) {
    if (Date.now() > until) throw new Error(`${file} did not appear within ${withinMs} ms`);
    await sleep(10);
  }
}
