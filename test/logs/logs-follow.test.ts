/**
 * `toolexec logs --follow` as a real process: it prints each call as its line is written, including
 * a line written in two pieces, and goes on across rotations: those of a real executor rotating its
 * log every second (rotating-file-stream renames the live file and opens a new one), and a rename
 * by hand followed by a last write to the renamed file. Ends cleanly on SIGINT. No sleeps: each step
 * waits for the line it expects on stdout.
 */
import { appendFileSync, existsSync, mkdtempSync, readdirSync, renameSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { execa, type ResultPromise } from "execa";
import { afterEach, describe, expect, it } from "vitest";
import { createExecutor } from "../../src/index.js";
import { BIN } from "../cli/run-cli.js";
import { createTempProject, toolEntry } from "../helpers/temp-project.js";
import { silentLogger } from "../mcp/mcp-test-helpers.js";

const running: ResultPromise[] = [];
afterEach(() => {
  for (const child of running.splice(0)) child.kill("SIGKILL");
});

/** A `logs --follow --json` process and the ids of the calls it printed so far. */
async function follow(dir: string, ...flags: string[]) {
  const child = execa(process.execPath, [BIN, "logs", "--follow", "--json", "--log-dir", dir, ...flags], { reject: false, stdin: "ignore" });
  running.push(child);
  const printed: string[] = [];
  let buffered = "";
  const waiters: Array<() => void> = [];
  child.stdout!.on("data", (chunk: Buffer) => {
    buffered += chunk.toString();
    const lines = buffered.split("\n");
    buffered = lines.pop()!;
    for (const line of lines) printed.push((JSON.parse(line) as { executionId: string }).executionId);
    for (const wake of waiters.splice(0)) wake();
  });
  // The process says it follows once it holds its place in the file.
  await new Promise<void>((resolve) => child.stderr!.on("data", (chunk: Buffer) => chunk.toString().includes("following") && resolve()));
  /** Resolves when every id is printed (rejects after `withinMs`, a bound for a broken follower only). */
  const waitFor = (ids: string[], withinMs = 30_000) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`not printed: ${ids.filter((id) => !printed.includes(id)).join(", ")}`)), withinMs);
      const check = () => {
        if (ids.every((id) => printed.includes(id))) {
          clearTimeout(timer);
          resolve();
        } else waiters.push(check);
      };
      check();
    });
  return { child, printed, waitFor };
}

const line = (executionId: string, tool = "echo") => `${JSON.stringify({ time: new Date().toISOString(), executionId, tool, plugin: "script", ok: true, durationMs: 1.5 })}\n`;

describe("toolexec logs --follow", () => {
  it("prints lines as they are appended, a line written in two pieces once whole, and follows a rename", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "toolexec-follow-"));
    const live = path.join(dir, "executions.jsonl");
    writeFileSync(live, line("old-line"));
    const { child, printed, waitFor } = await follow(dir);
    appendFileSync(live, line("first"));
    await waitFor(["first"]);
    // A whole line and the head of the next in one write: once the whole one is printed, the follower
    // has read the head too, and must hold it until the rest arrives.
    const split = line("split");
    appendFileSync(live, line("before-split") + split.slice(0, 20));
    await waitFor(["before-split"]);
    appendFileSync(live, split.slice(20));
    await waitFor(["split"]);
    // Rotation by hand: the live file renamed, one more line reaches the old file, then a new live file.
    renameSync(live, path.join(dir, "executions-2026-11-27.jsonl"));
    appendFileSync(path.join(dir, "executions-2026-11-27.jsonl"), line("late-in-old-file"));
    writeFileSync(live, line("in-new-file"));
    await waitFor(["late-in-old-file", "in-new-file"]);
    expect(printed).toEqual(["first", "before-split", "split", "late-in-old-file", "in-new-file"]);
    child.kill("SIGINT");
    expect((await child).exitCode).toBe(0);
  });

  it("keeps up with a real executor whose log rotates every second, and applies filters", async () => {
    const project = createTempProject({ tools: { tools: [toolEntry("echo", "shell", "echo.sh")] } });
    project.useFixtures("echo.sh");
    const logDir = project.path("logs");
    const { child, waitFor } = await follow(logDir, "--tool", "echo");
    const writer = await createExecutor({ root: project.root, logDir: "logs", log: { interval: "1s" }, watch: false, logger: silentLogger });
    const ids: string[] = [];
    let afterRotation = 0;
    try {
      // Calls until the log has rotated and three more calls were made after that.
      while (afterRotation < 3) {
        const result = await writer.callTool("echo", { n: ids.length });
        ids.push(result.executionId);
        const rotated = (existsSync(logDir) ? readdirSync(logDir) : []).some((name) => /^executions-.*\.jsonl$/.test(name));
        if (rotated) afterRotation++;
        await writer.callTool("missing_tool", {});
      }
    } finally {
      await writer.close();
    }
    await waitFor(ids);
    child.kill("SIGINT");
    const exited = await child;
    expect(exited.exitCode).toBe(0);
    // The filter held: only echo calls, never the missing tool's.
    expect(exited.stdout.trim().split("\n").every((printedLine) => (JSON.parse(printedLine) as { tool: string }).tool === "echo")).toBe(true);
  });
});
