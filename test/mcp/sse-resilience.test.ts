/**
 * A legacy SSE server: the shared resilience scenarios (resilience-suite.ts), plus what only legacy
 * SSE has: after a restart toolexec waits the server's `retry:` hint and initializes a new session
 * (instead of posting into one never initialized), follows a redirected event stream, and is found
 * from a bare url.
 */
import { describe, expect, it } from "vitest";
import type { ExecutorEvents } from "../../src/index.js";
import { fixtureLog, freePort, nextEvent, openProject, startFixtureServer } from "./mcp-test-helpers.js";
import { resilienceSuite } from "./resilience-suite.js";
import { sseDriver } from "./transport-driver.js";

const sessions = (log: ReturnType<typeof fixtureLog>) => log.events().filter((event) => event.event === "session").length;

describe("legacy SSE server", () => {
  resilienceSuite(sseDriver);

  it("is re-initialized after it restarts, after waiting its retry hint", async () => {
    const log = fixtureLog();
    const port = await freePort();
    const first = await startFixtureServer("sse", { port, log: log.file, flags: ["--retry-hint", "700"] });
    const { executor } = await openProject({ mcpServers: { legacy: { type: "sse", url: first.url } } });
    expect(await executor.callTool("legacy__count", {})).toMatchObject({ ok: true, value: { runs: 1 } });

    const retrying: Array<ExecutorEvents["server:retrying"] & { at: number }> = [];
    executor.on("server:retrying", (event) => retrying.push({ ...event, at: Date.now() }));
    const dropped = nextEvent(executor, "server:disconnected");
    await first.stop();
    expect(await dropped).toMatchObject({ server: "legacy", reason: 'Server "legacy" closed its SSE stream (it may have restarted)', willRetry: true });
    // The first reconnection is planned no sooner than the server's `retry: 700`.
    expect(retrying[0]!.nextAttemptAt - retrying[0]!.at).toBeGreaterThanOrEqual(690);

    const back = nextEvent(executor, "server:connected", ({ reconnected }) => reconnected);
    await startFixtureServer("sse", { port, log: log.file, flags: ["--retry-hint", "700"] });
    await back;
    expect(await executor.callTool("legacy__count", {})).toMatchObject({ ok: true, value: { runs: 1 } });
    expect(log.runs("count")).toBe(2);
    expect(sessions(log)).toBe(2);
  });

  it("follows a redirect of its event stream (the follow-up GET is not a reconnect)", async () => {
    const server = await startFixtureServer("sse");
    const { executor } = await openProject({ mcpServers: { moved: { type: "sse", url: server.url.replace(/\/sse$/, "/old-sse") } } });
    expect(executor.servers()[0]).toMatchObject({ state: "connected" });
    expect(await executor.callTool("moved__echo", { text: "redirected" })).toMatchObject({ ok: true, value: "redirected" });
  });

  it("is found from a bare url: Streamable HTTP is tried first, then legacy SSE", async () => {
    const server = await startFixtureServer("sse");
    const { executor } = await openProject({ mcpServers: { legacy: { url: server.url } } });
    expect(executor.servers()[0]).toMatchObject({ transport: "auto", connectedTransport: "sse", state: "connected" });
    expect(await executor.callTool("legacy__echo", { text: "found" })).toMatchObject({ ok: true, value: "found" });
  });
});
