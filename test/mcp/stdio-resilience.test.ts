/**
 * A stdio server that dies, hangs, answers garbage or too much: each ends the call with a clear code
 * within its budget, a dead server is respawned, and a call that is not safe to repeat never runs twice.
 */
import { describe, expect, it } from "vitest";
import type { ExecutorEvents } from "../../src/index.js";
import { eventually, fixtureLog, isAlive, nextEvent, openProject, stdioFixture } from "./mcp-test-helpers.js";

const pids = (log: ReturnType<typeof fixtureLog>) => log.events().filter((event) => event.event === "started").map((event) => event.pid);

describe("stdio server", () => {
  it("is respawned on the next call after it was killed", async () => {
    const log = fixtureLog();
    const { executor } = await openProject({ mcpServers: { fixture: stdioFixture(log.file) } });
    expect(await executor.callTool("fixture__echo", { text: "before" })).toMatchObject({ ok: true, value: "before" });
    const [first] = pids(log);
    const dropped = nextEvent(executor, "server:disconnected");
    process.kill(first!, "SIGKILL");
    expect(await dropped).toMatchObject({ server: "fixture", willRetry: true, reason: expect.stringContaining('Server "fixture" exited') });

    expect(await executor.callTool("fixture__echo", { text: "after" })).toMatchObject({ ok: true, value: "after" });
    expect(pids(log)).toHaveLength(2);
    expect(executor.servers()[0]).toMatchObject({ state: "connected", attempts: 0 });
  });

  it("never runs a call that is not idempotent twice when the server dies under it", async () => {
    const log = fixtureLog();
    const { executor } = await openProject({ mcpServers: { fixture: stdioFixture(log.file) } });
    const pending = executor.callTool("fixture__count", { delayMs: 10_000 });
    await eventually(() => log.runs("count") === 1, 5_000, "count running");
    process.kill(pids(log)[0]!, "SIGKILL");
    const result = await pending;
    expect(result).toMatchObject({ ok: false, error: { code: "SERVICE_UNAVAILABLE" } });
    expect(!result.ok && result.error.message).toMatch(/while "fixture__count" was running; not retried because the tool is not marked read-only or idempotent, so it may have run$/);
    expect(result.durationMs).toBeLessThan(5_000);
    expect(log.runs("count")).toBe(1);
    // The next call respawns the server and runs once.
    expect(await executor.callTool("fixture__count", {})).toMatchObject({ ok: true, value: { runs: 1 } });
    expect(log.runs("count")).toBe(2);
  });

  it("retries a read-only call whose server died under it, on a respawned server", async () => {
    const log = fixtureLog();
    const { executor } = await openProject({ mcpServers: { fixture: stdioFixture(log.file) } });
    const pending = executor.callTool("fixture__read_slow", { delayMs: 300 });
    await eventually(() => log.runs("read_slow") === 1, 5_000, "read_slow running");
    const [first] = pids(log);
    process.kill(first!, "SIGKILL");
    const result = await pending;
    expect(result).toMatchObject({ ok: true, value: { done: true } });
    expect(result.ok && (result.value as { pid: number }).pid).not.toBe(first);
    expect(log.runs("read_slow")).toBe(2);
  });

  it("ends a hung call with TIMEOUT at the server's timeoutMs", async () => {
    const { executor } = await openProject({ mcpServers: { fixture: stdioFixture(undefined, { timeoutMs: 1_000 }) } });
    const result = await executor.callTool("fixture__hang", {});
    expect(result).toMatchObject({ ok: false, error: { code: "TIMEOUT", details: { timeoutMs: 1_000 } } });
    expect(result.durationMs).toBeGreaterThanOrEqual(1_000);
    expect(result.durationMs).toBeLessThan(3_000);
    // The connection is still good.
    expect(await executor.callTool("fixture__echo", { text: "still here" })).toMatchObject({ ok: true });
  });

  it("fails a malformed reply at once with INVALID_OUTPUT, resets the connection and recovers", async () => {
    const log = fixtureLog();
    const { executor } = await openProject({ mcpServers: { fixture: stdioFixture(log.file, { timeoutMs: 20_000 }) } });
    const result = await executor.callTool("fixture__malformed", {});
    expect(result).toMatchObject({ ok: false, error: { code: "INVALID_OUTPUT" } });
    expect(!result.ok && result.error.message).toMatch(/^Server "fixture" sent a message that is not valid JSON-RPC \(.+\); the connection was reset$/);
    expect(result.durationMs).toBeLessThan(5_000);
    await eventually(() => !isAlive(pids(log)[0]!), 5_000, "the old server process gone");
    expect(await executor.callTool("fixture__echo", { text: "fresh" })).toMatchObject({ ok: true, value: "fresh" });
    expect(pids(log)).toHaveLength(2);
  });

  it("sends notifications/cancelled upstream when the caller aborts, and forwards progress before that", async () => {
    const log = fixtureLog();
    const { executor } = await openProject({ mcpServers: { fixture: stdioFixture(log.file) } });
    const controller = new AbortController();
    const progress: Array<ExecutorEvents["tool:progress"]> = [];
    executor.on("tool:progress", (event) => {
      progress.push(event);
      if (progress.length === 2) controller.abort();
    });
    const result = await executor.callTool("fixture__slow", { ms: 20_000 }, { signal: controller.signal });
    expect(result).toMatchObject({ ok: false, error: { code: "CANCELLED" } });
    expect(progress.slice(0, 2).map(({ progress: step, total, message }) => ({ step, total, message }))).toEqual([
      { step: 1, total: 200, message: "step 1" },
      { step: 2, total: 200, message: "step 2" },
    ]);
    await eventually(() => log.events().some((event) => event.event === "cancelled" && event.tool === "slow"), 5_000, "the server saw notifications/cancelled");
  });

  it("reports isError results as TOOL_FAILED with the server's text", async () => {
    const { executor } = await openProject({ mcpServers: { fixture: stdioFixture() } });
    expect(await executor.callTool("fixture__fail", {})).toMatchObject({
      ok: false,
      error: { code: "TOOL_FAILED", message: "disk is full", details: { server: "fixture", tool: "fail", content: [{ type: "text", text: "disk is full" }] } },
    });
  });

  it("caps a server's answers at maxResponseBytes", async () => {
    const { executor } = await openProject({ mcpServers: { fixture: stdioFixture(undefined, { maxResponseBytes: 2_000 }) } });
    expect(await executor.callTool("fixture__big", { bytes: 1_000 })).toMatchObject({ ok: true });
    expect(await executor.callTool("fixture__big", { bytes: 5_000 })).toMatchObject({
      ok: false,
      error: { code: "OUTPUT_TOO_LARGE", details: { server: "fixture", maxResponseBytes: 2_000 } },
    });
  });

  it("runs no more than maxConcurrency calls on a server at once", async () => {
    const log = fixtureLog();
    const { executor } = await openProject({ mcpServers: { fixture: stdioFixture(log.file, { maxConcurrency: 1 }) } });
    const progressed = nextEvent(executor, "tool:progress");
    const slow = executor.callTool("fixture__slow", { ms: 600 });
    await progressed;
    const count = executor.callTool("fixture__count", {});
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(log.runs("count")).toBe(0);
    expect(await slow).toMatchObject({ ok: true, value: "finished" });
    expect(await count).toMatchObject({ ok: true });
    expect(log.runs("count")).toBe(1);
  });

  it("refreshes its tools on notifications/tools/list_changed", async () => {
    const { executor } = await openProject({ mcpServers: { fixture: stdioFixture() } });
    const changed = nextEvent(executor, "tools:changed", ({ tools }) => tools.includes("fixture__fresh"));
    expect(await executor.callTool("fixture__add_tool", { name: "fresh" })).toMatchObject({ ok: true });
    await changed;
    expect((await executor.listTools()).map((tool) => tool.name)).toContain("fixture__fresh");
    expect(await executor.callTool("fixture__fresh", {})).toMatchObject({ ok: true, value: "I am fresh" });
  });

  it("stops its servers when the executor closes", async () => {
    const log = fixtureLog();
    const { executor } = await openProject({ mcpServers: { fixture: stdioFixture(log.file) } });
    const [pid] = pids(log);
    expect(isAlive(pid!)).toBe(true);
    await executor.close();
    await eventually(() => !isAlive(pid!), 5_000, "the server process gone");
  });
});
