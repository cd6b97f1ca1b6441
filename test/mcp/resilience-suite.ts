/**
 * The resilience scenarios every transport must pass, written once and run by stdio-, http- and
 * sse-resilience.test.ts with their driver (as hono runs one suite over every router): a server that
 * dies, restarts, stays down, hangs or answers garbage ends each call with a clear code within its
 * budget, reconnects, and never runs a call that is not safe to repeat twice.
 */
import { expect, it } from "vitest";
import type { ExecutorEvents } from "../../src/index.js";
import { eventually, nextEvent, openProject } from "./mcp-test-helpers.js";
import type { FaultServer, TransportDriver } from "./transport-driver.js";

/** Open an executor on one fault server named "fixture". */
async function connect(driver: TransportDriver, extra: Record<string, unknown> = {}) {
  const server: FaultServer = await driver.start(extra);
  const { executor } = await openProject({ mcpServers: { fixture: server.entry } });
  return { server, executor };
}

/** Register the shared scenarios inside the caller's `describe`. */
export function resilienceSuite(driver: TransportDriver): void {
  it("reconnects after the server died between calls, running the next call exactly once", async () => {
    // The background attempt is 30 s away: the call itself reconnects.
    const { server, executor } = await connect(driver, { retry: { minDelayMs: 30_000, maxDelayMs: 30_000 } });
    expect(await executor.callTool("fixture__count", {})).toMatchObject({ ok: true, value: { runs: 1 } });
    const dropped = nextEvent(executor, "server:disconnected");
    await server.kill();
    await server.restart();
    expect(await dropped).toMatchObject({ server: "fixture", willRetry: true, reason: expect.stringMatching(driver.droppedReason) });

    const result = await executor.callTool("fixture__count", {});
    // A new server: its count starts again at one, and the call ran there once.
    expect(result).toMatchObject({ ok: true, value: { runs: 1 } });
    // Well before the background attempt, with a margin for a busy machine.
    expect(result.durationMs).toBeLessThan(10_000);
    expect(server.log.runs("count")).toBe(2);
    expect(server.connections()).toBe(2);
    expect(executor.servers()[0]).toMatchObject({ state: "connected", attempts: 0, connectedTransport: driver.kind });
  });

  it("never runs a call that is not idempotent twice when the server dies under it", async () => {
    const { server, executor } = await connect(driver);
    const pending = executor.callTool("fixture__count", { delayMs: 10_000 });
    await eventually(() => server.log.runs("count") === 1, 5_000, "count running");
    await server.kill();
    await server.restart();
    const result = await pending;
    expect(result).toMatchObject({ ok: false, error: { code: "SERVICE_UNAVAILABLE" } });
    expect(!result.ok && result.error.message).toMatch(/ while "fixture__count" was running; not retried because the tool is not marked read-only or idempotent, so it may have run$/);
    expect(result.durationMs).toBeLessThan(5_000);
    expect(server.log.runs("count")).toBe(1);
    // The next call reaches the new server and runs once.
    expect(await executor.callTool("fixture__count", {})).toMatchObject({ ok: true, value: { runs: 1 } });
    expect(server.log.runs("count")).toBe(2);
  });

  it("retries a read-only call whose server died under it, on the new server", async () => {
    // A retry budget wide enough for a restarted server to come up on a loaded machine.
    const { server, executor } = await connect(driver, { retry: { retries: 6, minDelayMs: 250, maxDelayMs: 2_000 } });
    const pending = executor.callTool("fixture__read_slow", { delayMs: 1_000 });
    await eventually(() => server.log.runs("read_slow") === 1, 5_000, "read_slow running");
    const first = server.pid();
    await server.kill();
    await server.restart();
    const result = await pending;
    expect(result).toMatchObject({ ok: true, value: { done: true, pid: server.pid() } });
    expect(result.ok && (result.value as { pid: number }).pid).not.toBe(first);
    expect(server.log.runs("read_slow")).toBe(2);
  });

  it("answers SERVICE_UNAVAILABLE once its retries are spent on a server that stays down", async () => {
    const { server, executor } = await connect(driver, { retry: { retries: 2, minDelayMs: 50, maxDelayMs: 100 } });
    expect(await executor.callTool("fixture__echo", { text: "up" })).toMatchObject({ ok: true, value: "up" });
    await server.keepDown();
    const result = await executor.callTool("fixture__echo", { text: "down" }, { timeoutMs: 10_000 });
    expect(result).toMatchObject({ ok: false, error: { code: "SERVICE_UNAVAILABLE" } });
    expect(!result.ok && result.error.message).toMatch(driver.downMessage);
    // Spent retries answer well before the call's deadline.
    expect(result.durationMs).toBeLessThan(5_000);
  });

  it("ends a hung call with TIMEOUT at the server's timeoutMs, tells the server, and keeps the connection", async () => {
    const { server, executor } = await connect(driver, { timeoutMs: 1_000 });
    const result = await executor.callTool("fixture__hang", {});
    expect(result).toMatchObject({ ok: false, error: { code: "TIMEOUT", details: { timeoutMs: 1_000 } } });
    expect(result.durationMs).toBeGreaterThanOrEqual(1_000);
    expect(result.durationMs).toBeLessThan(3_000);
    await eventually(() => server.log.events().some((event) => event.event === "cancelled" && event.tool === "hang"), 5_000, "the server saw notifications/cancelled");
    // The connection is still good.
    expect(await executor.callTool("fixture__echo", { text: "still here" })).toMatchObject({ ok: true, value: "still here" });
    expect(server.connections()).toBe(1);
  });

  it("ends a call that keeps reporting progress with TIMEOUT at the deadline, and tells the server", async () => {
    const { server, executor } = await connect(driver, { timeoutMs: 1_000 });
    const result = await executor.callTool("fixture__slow", { ms: 30_000 });
    expect(result).toMatchObject({ ok: false, error: { code: "TIMEOUT" } });
    expect(result.durationMs).toBeLessThan(3_000);
    await eventually(() => server.log.events().some((event) => event.event === "cancelled" && event.tool === "slow"), 5_000, "the server saw notifications/cancelled");
  });

  it("fails a malformed reply at once with INVALID_OUTPUT, resets the connection and recovers", async () => {
    const { server, executor } = await connect(driver, { timeoutMs: 20_000 });
    const result = await executor.callTool("fixture__malformed", {});
    expect(result).toMatchObject({ ok: false, error: { code: "INVALID_OUTPUT" } });
    expect(!result.ok && result.error.message).toMatch(/^Server "fixture" sent a message that is not valid JSON-RPC \(.+\); the connection was reset$/);
    expect(result.durationMs).toBeLessThan(5_000);
    await server.connectionGone(0);
    expect(await executor.callTool("fixture__echo", { text: "fresh" })).toMatchObject({ ok: true, value: "fresh" });
    expect(server.connections()).toBe(2);
  });

  it("fails a call answered with an id it never sent at once with INVALID_OUTPUT, and recovers", async () => {
    const { server, executor } = await connect(driver, { timeoutMs: 20_000 });
    const result = await executor.callTool("fixture__wrong_id", {});
    expect(result).toMatchObject({ ok: false, error: { code: "INVALID_OUTPUT" } });
    const reset = driver.unknownReplyResets ? "; the connection was reset" : "";
    expect(!result.ok && result.error.message).toMatch(new RegExp(`^Server "fixture" answered a request it was never sent \\(id \\d+: \\{.+\\}\\)${reset}$`));
    expect(result.durationMs).toBeLessThan(5_000);
    expect(await executor.callTool("fixture__echo", { text: "fresh" })).toMatchObject({ ok: true, value: "fresh" });
    expect(server.connections()).toBe(driver.unknownReplyResets ? 2 : 1);
  });

  it("sends notifications/cancelled upstream when the caller aborts, and forwards progress before that", async () => {
    const { server, executor } = await connect(driver);
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
    await eventually(() => server.log.events().some((event) => event.event === "cancelled" && event.tool === "slow"), 5_000, "the server saw notifications/cancelled");
  });

  it("reports isError results as TOOL_FAILED with the server's text", async () => {
    const { executor } = await connect(driver);
    expect(await executor.callTool("fixture__fail", {})).toMatchObject({
      ok: false,
      error: { code: "TOOL_FAILED", message: "disk is full", details: { server: "fixture", tool: "fail", content: [{ type: "text", text: "disk is full" }] } },
    });
  });

  it("caps a server's answers at maxResponseBytes, whether they come in one read or many, and keeps the connection", async () => {
    const { server, executor } = await connect(driver, { maxResponseBytes: 8_000 });
    expect(await executor.callTool("fixture__big", { bytes: 1_000 })).toMatchObject({ ok: true });
    // 12 kB arrives in one read, 300 kB in many.
    for (const bytes of [12_000, 300_000]) {
      expect(await executor.callTool("fixture__big", { bytes })).toMatchObject({
        ok: false,
        error: { code: "OUTPUT_TOO_LARGE", details: { server: "fixture", maxResponseBytes: 8_000 } },
      });
    }
    expect(await executor.callTool("fixture__echo", { text: "after" })).toMatchObject({ ok: true, value: "after" });
    expect(server.connections()).toBe(1);
  });

  it("runs no more than maxConcurrency calls on a server at once", async () => {
    const { server, executor } = await connect(driver, { maxConcurrency: 1 });
    const progressed = nextEvent(executor, "tool:progress");
    const slow = executor.callTool("fixture__slow", { ms: 600 });
    await progressed;
    const count = executor.callTool("fixture__count", {});
    expect(await slow).toMatchObject({ ok: true, value: "finished" });
    expect(await count).toMatchObject({ ok: true });
    // The server's own log orders what it did: count ran only after slow had finished.
    const order = server.log
      .events()
      .filter((event) => (event.event === "run" || event.event === "finished") && (event.tool === "slow" || event.tool === "count"))
      .map((event) => `${event.event} ${event.tool}`);
    expect(order).toEqual(["run slow", "finished slow", "run count"]);
  });

  it("refreshes its tools on notifications/tools/list_changed", async () => {
    const { executor } = await connect(driver);
    const changed = nextEvent(executor, "tools:changed", ({ tools }) => tools.includes("fixture__fresh"));
    expect(await executor.callTool("fixture__add_tool", { name: "fresh" })).toMatchObject({ ok: true });
    await changed;
    expect((await executor.listTools()).map((tool) => tool.name)).toContain("fixture__fresh");
    expect(await executor.callTool("fixture__fresh", {})).toMatchObject({ ok: true, value: "I am fresh" });
  });

  it("reconnects in the background after the server comes back, without a call", async () => {
    const { server, executor } = await connect(driver, { retry: { minDelayMs: 100, maxDelayMs: 400 } });
    const dropped = nextEvent(executor, "server:disconnected");
    await server.kill();
    expect(await dropped).toMatchObject({ server: "fixture", willRetry: true, reason: expect.stringMatching(driver.droppedReason) });
    const back = nextEvent(executor, "server:connected", ({ reconnected }) => reconnected);
    await server.restart();
    expect(await back).toMatchObject({ server: "fixture", transport: driver.kind, reconnected: true });
    expect(server.connections()).toBe(2);
  });
}
