/**
 * A Streamable HTTP server that restarts, forgets sessions, is busy, hangs or answers garbage: the
 * session is re-initialized, Retry-After is honoured, every call ends with a clear code within its
 * budget, and a call that is not safe to repeat never runs twice.
 */
import { describe, expect, it } from "vitest";
import { eventually, fixtureLog, freePort, nextEvent, openProject, startFixtureServer } from "./mcp-test-helpers.js";

const sessions = (log: ReturnType<typeof fixtureLog>) => log.events().filter((event) => event.event === "session").length;

describe("Streamable HTTP server", () => {
  it("recovers after it restarts on the same port, running the next call exactly once", async () => {
    const log = fixtureLog();
    const port = await freePort();
    const first = await startFixtureServer("http", { port, log: log.file });
    const { executor } = await openProject({ mcpServers: { remote: { type: "http", url: first.url } } });
    expect(await executor.callTool("remote__count", {})).toMatchObject({ ok: true, value: { runs: 1 } });

    await first.stop();
    await startFixtureServer("http", { port, log: log.file });
    const result = await executor.callTool("remote__count", {});
    expect(result).toMatchObject({ ok: true, value: { runs: 1 } });
    expect(log.runs("count")).toBe(2);
    expect(sessions(log)).toBe(2);
    expect(executor.servers()[0]).toMatchObject({ state: "connected", connectedTransport: "http" });
  });

  it("re-initializes a session the server forgot (404) and sends the call once", async () => {
    const log = fixtureLog();
    const server = await startFixtureServer("http", { log: log.file });
    const { executor } = await openProject({ mcpServers: { remote: { type: "http", url: server.url } } });
    expect(await executor.callTool("remote__forget_sessions", {})).toMatchObject({ ok: true });
    expect(await executor.callTool("remote__count", {})).toMatchObject({ ok: true, value: { runs: 1 } });
    expect(log.runs("count")).toBe(1);
    expect(sessions(log)).toBe(2);
  });

  it("fails a call that is not idempotent with SERVICE_UNAVAILABLE when the server dies under it, and never reruns it", async () => {
    const log = fixtureLog();
    const port = await freePort();
    const first = await startFixtureServer("http", { port, log: log.file });
    const { executor } = await openProject({ mcpServers: { remote: { type: "http", url: first.url } } });
    const pending = executor.callTool("remote__count", { delayMs: 10_000 });
    await eventually(() => log.runs("count") === 1, 5_000, "count running");
    await first.stop();
    await startFixtureServer("http", { port, log: log.file });
    const result = await pending;
    expect(result).toMatchObject({ ok: false, error: { code: "SERVICE_UNAVAILABLE", message: expect.stringContaining("not retried because the tool is not marked read-only or idempotent") } });
    expect(result.durationMs).toBeLessThan(5_000);
    expect(log.runs("count")).toBe(1);
    expect(await executor.callTool("remote__count", {})).toMatchObject({ ok: true, value: { runs: 1 } });
    expect(log.runs("count")).toBe(2);
  });

  it("retries a read-only call whose server restarted under it", async () => {
    const log = fixtureLog();
    const port = await freePort();
    const first = await startFixtureServer("http", { port, log: log.file });
    // A retry budget wide enough for the restarted server to come up on a loaded machine.
    const { executor } = await openProject({ mcpServers: { remote: { type: "http", url: first.url, retry: { retries: 6, minDelayMs: 250, maxDelayMs: 2_000 } } } });
    const pending = executor.callTool("remote__read_slow", { delayMs: 1_000 });
    await eventually(() => log.runs("read_slow") === 1, 5_000, "read_slow running");
    await first.stop();
    const second = await startFixtureServer("http", { port, log: log.file });
    const result = await pending;
    expect(result).toMatchObject({ ok: true, value: { done: true, pid: second.process.pid } });
    expect(log.runs("read_slow")).toBe(2);
  });

  it("honours Retry-After on 503, then answers", async () => {
    const log = fixtureLog();
    const server = await startFixtureServer("http", { log: log.file, flags: ["--busy", "2", "--retry-after", "1"] });
    const { executor } = await openProject({ mcpServers: { remote: { type: "http", url: server.url } } });
    const result = await executor.callTool("remote__count", {});
    expect(result).toMatchObject({ ok: true, value: { runs: 1 } });
    // Two waits of at least the second the server asked for.
    expect(result.durationMs).toBeGreaterThanOrEqual(1_900);
    expect(log.events().filter((event) => event.event === "busy")).toHaveLength(2);
    expect(log.runs("count")).toBe(1);
  });

  it("answers SERVICE_UNAVAILABLE at once when a 429's Retry-After passes the call's deadline", async () => {
    const server = await startFixtureServer("http", { flags: ["--busy", "5", "--busy-status", "429", "--retry-after", "30"] });
    const { executor } = await openProject({ mcpServers: { remote: { type: "http", url: server.url } } });
    const result = await executor.callTool("remote__count", {}, { timeoutMs: 5_000 });
    expect(result).toMatchObject({ ok: false, error: { code: "SERVICE_UNAVAILABLE", details: { httpStatus: 429, retryAfterMs: 30_000 } } });
    expect(!result.ok && result.error.message).toMatch(/^Server "remote" is busy \(HTTP 429\); it asked to retry after 30000 ms; no time is left for another attempt before the call's deadline$/);
    expect(result.durationMs).toBeLessThan(2_000);
  });

  it("fails a malformed answer at once with INVALID_OUTPUT and recovers with a new session", async () => {
    const log = fixtureLog();
    const server = await startFixtureServer("http", { log: log.file });
    const { executor } = await openProject({ mcpServers: { remote: { type: "http", url: server.url, timeoutMs: 20_000 } } });
    const result = await executor.callTool("remote__malformed", {});
    expect(result).toMatchObject({ ok: false, error: { code: "INVALID_OUTPUT", message: expect.stringMatching(/^Server "remote" sent a message that is not valid JSON-RPC/) } });
    expect(result.durationMs).toBeLessThan(5_000);
    expect(await executor.callTool("remote__echo", { text: "ok" })).toMatchObject({ ok: true, value: "ok" });
    expect(sessions(log)).toBe(2);
  });

  it("ends a hung call with TIMEOUT and tells the server it was cancelled", async () => {
    const log = fixtureLog();
    const server = await startFixtureServer("http", { log: log.file });
    const { executor } = await openProject({ mcpServers: { remote: { type: "http", url: server.url, timeoutMs: 1_000 } } });
    const result = await executor.callTool("remote__slow", { ms: 30_000 });
    expect(result).toMatchObject({ ok: false, error: { code: "TIMEOUT" } });
    expect(result.durationMs).toBeLessThan(3_000);
    await eventually(() => log.events().some((event) => event.event === "cancelled"), 5_000, "the server saw notifications/cancelled");
  });

  it("caps a JSON answer at maxResponseBytes while it streams in", async () => {
    const server = await startFixtureServer("http", { flags: ["--json"] });
    const { executor } = await openProject({ mcpServers: { remote: { type: "http", url: server.url, maxResponseBytes: 10_000 } } });
    expect(await executor.callTool("remote__big", { bytes: 100 })).toMatchObject({ ok: true });
    expect(await executor.callTool("remote__big", { bytes: 50_000 })).toMatchObject({ ok: false, error: { code: "OUTPUT_TOO_LARGE" } });
    expect(await executor.callTool("remote__echo", { text: "after" })).toMatchObject({ ok: true, value: "after" });
  });

  it("reconnects in the background after the server comes back, without a call", async () => {
    const port = await freePort();
    const first = await startFixtureServer("http", { port });
    const { executor } = await openProject({ mcpServers: { remote: { type: "http", url: first.url, retry: { minDelayMs: 100, maxDelayMs: 400 } } } });
    const dropped = nextEvent(executor, "server:disconnected");
    await first.stop();
    await dropped;
    const back = nextEvent(executor, "server:connected", ({ reconnected }) => reconnected);
    await startFixtureServer("http", { port });
    expect(await back).toMatchObject({ server: "remote", transport: "http", reconnected: true });
  });
});
