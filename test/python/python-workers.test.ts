/** Warm worker lifecycles with real python3 processes: deadlines, crashes, edits, overlap, leaks. */
import { readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { childPids, createMemoryLogger, startedPid, isAlive, pythonProject, startExecutor, textTools } from "./python-test-helpers.js";

async function pidOf(executor: Awaited<ReturnType<typeof startExecutor>>): Promise<number> {
  const result = await executor.callTool("worker_pid", {});
  if (!result.ok) throw new Error(result.error.message);
  return result.value as number;
}

/** Each call's [start, end] from the log the tool writes (monotonic clock, one process-wide clock). */
function spans(log: string): Array<[number, number]> {
  return readFileSync(log, "utf8").trim().split("\n").map((line) => {
    const [, start, end] = line.split(" ");
    return [Number(start), Number(end)];
  });
}

function overlaps(all: Array<[number, number]>): boolean {
  const sorted = [...all].sort((left, right) => left[0] - right[0]);
  return sorted.some((span, index) => index > 0 && span[0] < sorted[index - 1]![1]);
}

describe("python workers", () => {
  it("kills a worker stuck in time.sleep at the deadline, and a fresh worker takes the next call", async () => {
    const project = pythonProject(textTools("sleep_in_c", "worker_pid"));
    const executor = await startExecutor(project);
    const marker = project.path("started");
    const call = executor.callTool("sleep_in_c", { marker, seconds: 60 }, { timeoutMs: 1_500 });
    const stuckPid = await startedPid(marker);
    const result = await call;
    if (result.ok) throw new Error("expected a timeout");
    expect(result.error.code).toBe("TIMEOUT");
    expect(result.error.message).toMatchInlineSnapshot(`"text_tools.py:sleep_in_c was still running at the call's deadline; its worker's process group was killed and a fresh worker takes the next call"`);
    expect(isAlive(stuckPid)).toBe(false);
    const nextPid = await pidOf(executor);
    expect(nextPid).not.toBe(stuckPid);
  });

  it("answers a call whose worker is killed from outside with TOOL_FAILED, and recovers", async () => {
    const project = pythonProject(textTools("sleep_in_c", "worker_pid"));
    const executor = await startExecutor(project);
    const marker = project.path("started");
    const call = executor.callTool("sleep_in_c", { marker, seconds: 60 });
    const pid = await startedPid(marker);
    process.kill(pid, "SIGKILL");
    const result = await call;
    if (result.ok) throw new Error("expected a failure");
    expect(result.error.code).toBe("TOOL_FAILED");
    expect(result.error.message).toMatchInlineSnapshot(`"The Python worker running text_tools.py:sleep_in_c was killed by SIGKILL during the call; a fresh worker takes the next call"`);
    expect(await pidOf(executor)).not.toBe(pid);
  });

  it("leaves out the tools of a module that fails to import, naming its file and line", async () => {
    const logger = createMemoryLogger();
    const project = pythonProject([...textTools("word_count"), { name: "never", function: "broken_import.py:never" }]);
    const executor = await startExecutor(project, { logger });
    expect((await executor.listTools()).map((tool) => tool.name)).toEqual(["word_count", "read_result"]);
    expect(logger.warnings).toMatchInlineSnapshot(`
      [
        "Python tool "never" left out: tools/broken_import.py:3: ModuleNotFoundError: No module named 'a_module_that_does_not_exist'",
      ]
    `);
    const result = await executor.callTool("never", { x: 1 });
    if (result.ok) throw new Error("expected a failure");
    expect({ code: result.error.code, message: result.error.message }).toMatchInlineSnapshot(`
      {
        "code": "TOOL_FAILED",
        "message": "Python tool "never" is unavailable: tools/broken_import.py:3: ModuleNotFoundError: No module named 'a_module_that_does_not_exist'",
      }
    `);
  });

  it("re-imports a module edited on disk at its next call, with the new schema", async () => {
    const project = pythonProject(textTools("word_count"));
    const executor = await startExecutor(project);
    expect(await executor.callTool("word_count", { text: "a b c" })).toMatchObject({ ok: true, value: 3 });
    const module = project.path("tools/text_tools.py");
    writeFileSync(module, readFileSync(module, "utf8").replace("return len(text.split())", "return len(text.split()) * 100").replace("def word_count(text: str)", "def word_count(text: str, unit: str = 'words')"));
    expect(await executor.callTool("word_count", { text: "a b c" })).toMatchObject({ ok: true, value: 300 });
    const tool = (await executor.listTools()).find((definition) => definition.name === "word_count");
    expect(Object.keys((tool?.inputSchema as { properties: object }).properties)).toEqual(["text", "unit"]);
  });

  it("runs a parallel tool's calls on several workers at once, and a serial tool's one at a time", async () => {
    const project = pythonProject([
      { name: "meet", function: "text_tools.py:rendezvous", parallel: true },
      { name: "serial_span", function: "text_tools.py:record_span" },
    ]);
    const executor = await startExecutor(project);
    // Each parallel call waits until both have started: only overlapping calls can both say true.
    const folder = project.path("met");
    const met = await Promise.all(["a", "b"].map((tag) => executor.callTool("meet", { folder, tag }, { timeoutMs: 30_000 })));
    expect(met.map((result) => (result.ok ? result.value : result.error.code))).toEqual([true, true]);
    const serialLog = project.path("serial.log");
    const serialResults = await Promise.all([1, 2, 3].map((index) => executor.callTool("serial_span", { log: serialLog, tag: `s${index}`, seconds: 0.05 })));
    expect(serialResults.every((result) => result.ok)).toBe(true);
    expect(overlaps(spans(serialLog))).toBe(false);
  });

  it("runs 1,000 calls and leaves no process behind after close", async () => {
    const before = new Set(childPids());
    const project = pythonProject([{ name: "echo", function: "text_tools.py:echo", parallel: true }]);
    const executor = await startExecutor(project);
    for (let round = 0; round < 10; round++) {
      const results = await Promise.all(Array.from({ length: 100 }, (_, index) => executor.callTool("echo", { value: round * 100 + index })));
      expect(results.every((result, index) => result.ok && result.value === round * 100 + index)).toBe(true);
    }
    const during = childPids().filter((pid) => !before.has(pid));
    expect(during.length).toBeGreaterThan(0);
    expect(during.length).toBeLessThanOrEqual(4);
    await executor.close();
    expect(childPids().filter((pid) => !before.has(pid))).toEqual([]);
  }, 30_000);
});

describe("a broken module fixed on disk", () => {
  it("joins the tool list once the edit is noticed", async () => {
    const project = pythonProject([{ name: "never", function: "broken_import.py:never" }]);
    const executor = await startExecutor(project);
    const changed = new Promise<void>((resolve) => executor.on("tools:changed", () => resolve()));
    writeFileSync(project.path("tools/broken_import.py"), "def never(x: int) -> int:\n    return x\n");
    const first = await executor.callTool("never", { x: 1 });
    expect(first.ok).toBe(false);
    await changed;
    expect(await executor.callTool("never", { x: 7 })).toMatchObject({ ok: true, value: 7 });
  });
});
