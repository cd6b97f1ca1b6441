/**
 * `async def` tools marked parallel overlap on one worker's event loop, bounded per worker; sync
 * tools keep a worker per call; a cancelled or timed-out async call stops alone; a FastMCP
 * Context's log lines and progress reach the host.
 */
import { describe, expect, it } from "vitest";
import { createTempProject } from "../helpers/temp-project.js";
import { startExecutor } from "./python-test-helpers.js";

const ASYNC_TOOLS = `import asyncio, os, time
from toolexec import tool
from mcp.server.fastmcp import Context

running = 0
most = 0


@tool(parallel=True)
async def nap(ms: int) -> dict:
    """Await ms milliseconds; say which worker ran it and how many naps overlapped at most."""
    global running, most
    running += 1
    most = max(most, running)
    print(f"nap {ms}")
    try:
        await asyncio.sleep(ms / 1000)
    finally:
        running -= 1
    return {"pid": os.getpid(), "most": most}


@tool(parallel=True)
def block(ms: int) -> int:
    """A sync tool: blocks its worker for ms milliseconds."""
    time.sleep(ms / 1000)
    return os.getpid()


@tool(parallel=True)
async def chatty(ctx: Context) -> str:
    """Logs and reports progress through its Context."""
    await ctx.info("starting")
    await ctx.report_progress(1, 2, "half way")
    await ctx.report_progress(2, 2)
    return "done"
`;

function asyncProject(python: object = {}) {
  const project = createTempProject({ tools: { tools: [], pythonModules: ["async_tools.py"], python } });
  project.write("tools/async_tools.py", ASYNC_TOOLS);
  return project;
}

describe("async Python tools", () => {
  it("20 calls of a parallel async tool awaiting 100 ms overlap on one worker, up to the per-worker limit", async () => {
    const project = asyncProject({ maxWorkers: 1, maxAsyncCallsPerWorker: 20 });
    const executor = await startExecutor(project, { maxConcurrency: 64 });
    expect(await executor.callTool("nap", { ms: 1 })).toMatchObject({ ok: true }); // the worker is warm
    const started = performance.now();
    const results = await Promise.all(Array.from({ length: 20 }, () => executor.callTool("nap", { ms: 100 })));
    const elapsed = performance.now() - started;
    const values = results.map((result) => (result.ok ? (result.value as { pid: number; most: number }) : result.error));
    expect(new Set(values.map((value) => (value as { pid: number }).pid)).size).toBe(1);
    expect(Math.max(...values.map((value) => (value as { most: number }).most))).toBe(20);
    // The bound is the behaviour: one at a time would take 2,000 ms; overlapped, about 100 ms (400 allowed, with a margin for a busy machine).
    expect(elapsed).toBeLessThan(1000);
  });

  it("the per-worker limit bounds the overlap; sync tools take a worker each", async () => {
    const project = asyncProject({ maxWorkers: 2, maxAsyncCallsPerWorker: 4 });
    const executor = await startExecutor(project, { maxConcurrency: 64 });
    const naps = await Promise.all(Array.from({ length: 12 }, () => executor.callTool("nap", { ms: 50 })));
    expect(Math.max(...naps.map((result) => (result.ok ? (result.value as { most: number }).most : 0)))).toBeLessThanOrEqual(4);
    const blocks = await Promise.all([executor.callTool("block", { ms: 200 }), executor.callTool("block", { ms: 200 })]);
    expect(new Set(blocks.map((result) => (result.ok ? result.value : result.error))).size).toBe(2);
  });

  it("a timed-out async call stops alone: the calls overlapping it on the worker finish", async () => {
    const project = asyncProject({ maxWorkers: 1 });
    const executor = await startExecutor(project, { maxConcurrency: 64 });
    const warm = await executor.callTool("nap", { ms: 1 });
    const [late, onTime] = await Promise.all([executor.callTool("nap", { ms: 5000 }, { timeoutMs: 300 }), executor.callTool("nap", { ms: 600 })]);
    expect(late).toMatchObject({ ok: false, error: { code: "TIMEOUT" } });
    expect(onTime).toMatchObject({ ok: true });
    // The same worker ran all three: the late call was cancelled on its event loop, not by killing the worker.
    const pidOf = (result: typeof warm) => result.ok && (result.value as { pid: number }).pid;
    expect(pidOf(onTime)).toBe(pidOf(warm));
    expect(pidOf(await executor.callTool("nap", { ms: 1 }))).toBe(pidOf(warm));
  });

  it("Context logging and progress reach the host's logger, events and the call's progress", async () => {
    const project = asyncProject();
    const lines: string[] = [];
    const logger = { debug() {}, info: (message: string) => void lines.push(message), warn() {}, error() {} };
    const executor = await startExecutor(project, { logger });
    const logs: unknown[] = [];
    executor.on("python:log", (event) => void logs.push(event));
    const progress: unknown[] = [];
    expect(await executor.callTool("chatty", {}, { onProgress: (step) => void progress.push(step) })).toMatchObject({ ok: true, value: "done" });
    expect(progress).toEqual([{ progress: 1, total: 2, message: "half way" }, { progress: 2, total: 2 }]);
    expect(logs).toEqual([expect.objectContaining({ tool: "chatty", level: "info", message: "starting" })]);
    expect(lines).toContain("chatty: starting");
  });
});
