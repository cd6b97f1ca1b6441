/**
 * A Streamable HTTP server: the shared resilience scenarios (resilience-suite.ts), plus what only
 * HTTP has: a forgotten session (404) is re-initialized, Retry-After is honoured on 503 and 429, and
 * a JSON answer is capped while it streams in.
 */
import { describe, expect, it } from "vitest";
import { fixtureLog, openProject, startFixtureServer } from "./mcp-test-helpers.js";
import { resilienceSuite } from "./resilience-suite.js";
import { httpDriver } from "./transport-driver.js";

const sessions = (log: ReturnType<typeof fixtureLog>) => log.events().filter((event) => event.event === "session").length;

describe("Streamable HTTP server", () => {
  resilienceSuite(httpDriver);

  it("re-initializes a session the server forgot (404) and sends the call once", async () => {
    const log = fixtureLog();
    const server = await startFixtureServer("http", { log: log.file });
    const { executor } = await openProject({ mcpServers: { remote: { type: "http", url: server.url } } });
    expect(await executor.callTool("remote__forget_sessions", {})).toMatchObject({ ok: true });
    expect(await executor.callTool("remote__count", {})).toMatchObject({ ok: true, value: { runs: 1 } });
    expect(log.runs("count")).toBe(1);
    expect(sessions(log)).toBe(2);
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
    const result = await executor.callTool("remote__count", {}, { timeoutMs: 20_000 });
    expect(result).toMatchObject({ ok: false, error: { code: "SERVICE_UNAVAILABLE", details: { httpStatus: 429, retryAfterMs: 30_000 } } });
    expect(!result.ok && result.error.message).toMatch(/^Server "remote" is busy \(HTTP 429\); it asked to retry after 30000 ms; no time is left for another attempt before the call's deadline$/);
    // At once: far from the 20 s a wait would spend, with a margin for a busy machine.
    expect(result.durationMs).toBeLessThan(10_000);
  });

  it("caps a JSON answer at maxResponseBytes while it streams in", async () => {
    const server = await startFixtureServer("http", { flags: ["--json"] });
    const { executor } = await openProject({ mcpServers: { remote: { type: "http", url: server.url, maxResponseBytes: 10_000 } } });
    expect(await executor.callTool("remote__big", { bytes: 100 })).toMatchObject({ ok: true });
    expect(await executor.callTool("remote__big", { bytes: 50_000 })).toMatchObject({ ok: false, error: { code: "OUTPUT_TOO_LARGE" } });
    expect(await executor.callTool("remote__echo", { text: "after" })).toMatchObject({ ok: true, value: "after" });
  });

});
