/**
 * Stdio servers that start when needed and stop when idle, with real processes: each fixture server
 * (test/fixtures/mcp/lifecycle-server.mjs) records `spawned`, `listed` and `exit` with its pid in a
 * shared log, which the tests read to count processes, measure how many start at once, and find
 * orphans. No sleep stands for a start: tests wait on the log, events and states.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createExecutor, type Executor, type ExecutorEvents, type ExecutorOptions } from "../../src/index.js";
import { TOOL_LIST_CACHE_FOLDER } from "../../src/plugins/mcp/tool-list-cache.js";
import { isRunning } from "../helpers/processes.js";
import { createTempProject, type TempProject } from "../helpers/temp-project.js";
import { FIXTURES, eventually, silentLogger, track } from "./mcp-test-helpers.js";

const SERVER = path.join(FIXTURES, "lifecycle-server.mjs");

type LogLine = { event: "spawned" | "listed" | "exit"; server: string; pid: number };

function lifecycleProject(count: number, extra: Record<string, unknown> = {}, entryExtra: Record<string, unknown> = {}) {
  const project = createTempProject({ tools: { tools: [] } });
  const log = project.path("lifecycle.jsonl");
  const mcpServers = Object.fromEntries(
    Array.from({ length: count }, (_, index) => [`s${index}`, { command: process.execPath, args: [SERVER], ...entryExtra, env: { LIFECYCLE_LOG: log, SERVER_NAME: `s${index}`, ...(entryExtra.env as object | undefined) } }]),
  );
  project.write("mcp.json", { mcpServers, ...extra });
  const lines = (): LogLine[] => (existsSync(log) ? readFileSync(log, "utf8").split("\n").filter(Boolean).map((line) => JSON.parse(line) as LogLine) : []);
  return { project, lines, spawned: () => lines().filter((line) => line.event === "spawned") };
}

const open = (project: TempProject, options: Partial<ExecutorOptions> = {}): Promise<Executor> =>
  createExecutor({ root: project.root, logDir: false, watch: false, logger: silentLogger, ...options }).then(track);

/** The most servers between `spawned` and `listed` at any point of the log (the log is written in causal order). */
function maxStartingAtOnce(lines: LogLine[]): number {
  let starting = 0;
  let most = 0;
  for (const line of lines) {
    if (line.event === "spawned") most = Math.max(most, ++starting);
    else if (line.event === "listed") starting--;
  }
  return most;
}

async function expectNoOrphans(lines: () => LogLine[]): Promise<void> {
  const pids = [...new Set(lines().map((line) => line.pid))];
  await eventually(() => pids.every((pid) => !isRunning(pid)), 15_000, "every server process ended");
}

describe("stdio servers with start: lazy (20 servers, real processes)", () => {
  it("first run: each starts once to learn its tools, at most 4 at once; later runs start none, list every tool from the cache, and start only what a call needs", async () => {
    const { project, lines, spawned } = lifecycleProject(20, { serverDefaults: { start: "lazy" } });
    const first = await open(project, { mcp: { startupTimeoutMs: 120_000 } });
    expect(spawned()).toHaveLength(20);
    expect(await serverToolNames(first)).toHaveLength(40);
    const overlap = maxStartingAtOnce(lines());
    expect(overlap).toBeLessThanOrEqual(4);
    expect(overlap).toBeGreaterThanOrEqual(2);
    await first.close();
    await expectNoOrphans(lines);
    expect(readdirSync(project.path(TOOL_LIST_CACHE_FOLDER))).toHaveLength(20);

    const second = await open(project);
    expect(spawned()).toHaveLength(20);
    expect(await serverToolNames(second)).toHaveLength(40);
    expect(new Set(second.servers().map((server) => server.state))).toEqual(new Set(["stopped"]));
    expect(await second.callTool("s7__echo", { text: "hi" })).toMatchObject({ ok: true, value: "hi" });
    expect(spawned().slice(20).map((line) => line.server)).toEqual(["s7"]);
    expect(second.servers().find((server) => server.name === "s7")?.state).toBe("connected");
    await second.close();
    await expectNoOrphans(lines);
  }, 120_000);

  it("a burst of calls to a stopped server starts one process", async () => {
    const { project, spawned } = lifecycleProject(1, {}, { start: "lazy" });
    await (await open(project, { mcp: { startupTimeoutMs: 60_000 } })).close();
    const executor = await open(project);
    const starting: ExecutorEvents["server:starting"][] = [];
    executor.on("server:starting", (payload) => starting.push(payload));
    const results = await Promise.all(Array.from({ length: 10 }, (_, index) => executor.callTool("s0__echo", { text: String(index) })));
    expect(results.every((result) => result.ok)).toBe(true);
    expect(spawned()).toHaveLength(2);
    expect(starting).toEqual([{ server: "s0", reason: "call" }]);
  }, 60_000);
});

describe("a kept tool list that is out of date", () => {
  it("a call of a tool the list lacks starts the stopped server, which lists it afresh, and the call runs", async () => {
    const { project, spawned } = lifecycleProject(1, {}, { start: "lazy", env: { LIFECYCLE_EXTRA_TOOL: "added-tool.txt" } });
    await (await open(project, { mcp: { startupTimeoutMs: 60_000 } })).close();
    // The server gains a tool; its command, args, env and cwd (the list's key) are unchanged.
    project.write("added-tool.txt", "added");
    const executor = await open(project);
    expect(await serverToolNames(executor)).toEqual(["s0__echo", "s0__wait"]);
    expect(await executor.callTool("s0__added", {})).toMatchObject({ ok: true, value: "added" });
    expect(await serverToolNames(executor)).toEqual(["s0__echo", "s0__wait", "s0__added"]);
    expect(spawned()).toHaveLength(2);
    expect(await executor.callTool("s0__missing", {})).toMatchObject({ ok: false, error: { code: "TOOL_NOT_FOUND" } });
  }, 60_000);
});

describe("the executor's mcp.start", () => {
  it("is the start of entries that name none: lazy keeps a server with a kept list stopped; the default is eager", async () => {
    const { project, spawned } = lifecycleProject(1);
    await (await open(project, { mcp: { start: "lazy" } })).close();
    expect(spawned()).toHaveLength(1);
    const lazy = await open(project, { mcp: { start: "lazy" } });
    expect(lazy.servers()[0]).toMatchObject({ state: "stopped", tools: ["s0__echo", "s0__wait"] });
    expect(spawned()).toHaveLength(1);
    await lazy.close();
    const eager = await open(project);
    expect(eager.servers()[0]?.state).toBe("connected");
    expect(spawned()).toHaveLength(2);
  }, 60_000);
});

describe("idleTimeoutMs", () => {
  it("stops a server left unused, and the next call starts it again", async () => {
    const { project, lines, spawned } = lifecycleProject(1, {}, { idleTimeoutMs: 300 });
    const executor = await open(project);
    const stopped: ExecutorEvents["server:stopped"][] = [];
    executor.on("server:stopped", (payload) => stopped.push(payload));
    const [firstProcess] = spawned();
    await eventually(() => executor.servers()[0]?.state === "idle", 15_000, "the server stopped as idle");
    expect(stopped).toEqual([{ server: "s0", reason: "idle", idleMs: 300 }]);
    expect(executor.servers()[0]?.tools).toEqual(["s0__echo", "s0__wait"]);
    await eventually(() => !isRunning(firstProcess!.pid), 15_000, "the idle server's process ended");
    expect(await executor.callTool("s0__echo", { text: "again" })).toMatchObject({ ok: true, value: "again" });
    expect(spawned()).toHaveLength(2);
    await executor.close();
    await expectNoOrphans(lines);
  }, 60_000);

  it("never stops a server while a call is under way on it", async () => {
    const { project, spawned } = lifecycleProject(1, {}, { idleTimeoutMs: 200 });
    const executor = await open(project);
    const stopped: unknown[] = [];
    executor.on("server:stopped", (payload) => stopped.push(payload));
    // Five idle timeouts long: the call holds the server all along.
    const result = await executor.callTool("s0__wait", { ms: 1_000 });
    expect(result).toMatchObject({ ok: true });
    expect(stopped).toEqual([]);
    expect(spawned()).toHaveLength(1);
  }, 60_000);

  it("a call that comes as the idle stop begins waits for the old process to end, starts one new process, and succeeds", async () => {
    // Each stopped process takes 400 ms to end: a new one started at once would overlap it.
    const { project, lines } = lifecycleProject(1, {}, { idleTimeoutMs: 100, env: { LIFECYCLE_SLOW_EXIT: "1" } });
    const executor = await open(project);
    for (let round = 0; round < 3; round++) {
      const call = new Promise<Awaited<ReturnType<Executor["callTool"]>>>((resolve) => {
        const unsubscribe = executor.on("server:stopped", () => {
          unsubscribe();
          // In the stop's own turn: the old session is let go, its process not yet ended.
          resolve(executor.callTool("s0__echo", { text: `round ${round}` }));
        });
      });
      expect(await call).toMatchObject({ ok: true, value: `round ${round}` });
    }
    // One process at a time: each `spawned` after the previous process's `exit`.
    const events = lines().filter((line) => line.event !== "listed");
    expect(events.map((line) => line.event)).toEqual(["spawned", "exit", "spawned", "exit", "spawned", "exit", "spawned"]);
    await executor.close();
    await expectNoOrphans(lines);
  }, 60_000);
});

/** The servers' tools, without the executor's built-ins (read_result is always listed). */
async function serverToolNames(executor: { listTools(): Promise<Array<{ name: string }>> }): Promise<string[]> {
  return (await executor.listTools()).map((tool) => tool.name).filter((name) => name.includes("__"));
}
