/**
 * An upstream server that speaks ONLY protocol 2026-07-28 (the SDK v2 server refusing 2025
 * clients), over stdio and Streamable HTTP: the MCP plugin finds the era from the refused
 * `initialize`, then calls, reconnects after the server died (a respawn, a restart), never runs a
 * call twice, keeps deadlines, and answers the server's inputRequired with the host's elicitation.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { eventually, FIXTURES, fixtureLog, freePort, isAlive, nextEvent, openProject, startProcess, type RunningServer } from "./mcp-test-helpers.js";

const SERVER = path.join(FIXTURES, "modern-only-server.mjs");
const started = (log: ReturnType<typeof fixtureLog>) => log.events().filter((event) => event.event === "started").map((event) => event.pid);

interface ModernFixture {
  /** stdio: the process the executor talks to; HTTP: nothing lasts between 2026 requests, so nothing drops between calls. */
  dropsBetweenCalls: boolean;
  entry: Record<string, unknown>;
  log: ReturnType<typeof fixtureLog>;
  kill(): Promise<void>;
  restart(): Promise<void>;
}

async function stdioModern(extra: Record<string, unknown> = {}): Promise<ModernFixture> {
  const log = fixtureLog();
  const kill = async () => {
    const pid = started(log).at(-1)!;
    process.kill(pid, "SIGKILL");
    await eventually(() => !isAlive(pid), 5_000, "the killed server gone");
  };
  return { dropsBetweenCalls: true, entry: { command: process.execPath, args: [SERVER, "stdio"], env: { FIXTURE_LOG: log.file }, ...extra }, log, kill, restart: async () => undefined };
}

async function httpModern(extra: Record<string, unknown> = {}): Promise<ModernFixture> {
  const log = fixtureLog();
  const port = await freePort();
  const start = () => startProcess([SERVER, "http", String(port)], { FIXTURE_LOG: log.file }, /listening (\d+)/, (actual) => `http://127.0.0.1:${actual}/mcp`, port);
  let running: RunningServer | undefined = await start();
  return {
    dropsBetweenCalls: false,
    entry: { type: "http", url: running.url, ...extra },
    log,
    async kill() {
      await running?.stop();
      running = undefined;
    },
    async restart() {
      running = await start();
    },
  };
}

describe.each([
  ["stdio", stdioModern],
  ["Streamable HTTP", httpModern],
])("a 2026-only upstream server over %s", (_name, startServer) => {
  it("is connected in the 2026-07-28 era and called", async () => {
    const server = await startServer();
    const { executor } = await openProject({ mcpServers: { modern: server.entry } });
    expect(await executor.callTool("modern__echo", { text: "hello 2026" })).toMatchObject({ ok: true, value: "hello 2026" });
    expect(executor.servers()[0]).toMatchObject({ name: "modern", state: "connected" });
    // Its first opening was a 2025 `initialize`, which it refused; no other was ever sent.
    expect(server.log.events().filter((event) => event.event === "refused")).toHaveLength(1);
  });

  it("answers the server's inputRequired elicitation through the host's onElicitation", async () => {
    const server = await startServer();
    const asked: string[] = [];
    const { executor } = await openProject(
      { mcpServers: { modern: server.entry } },
      {
        onElicitation: async ({ message }) => {
          asked.push(message);
          return { action: "accept", content: { colour: "teal" } };
        },
      },
    );
    expect(await executor.callTool("modern__ask", {})).toMatchObject({ ok: true, value: "colour: teal" });
    expect(asked).toEqual(["Which colour?"]);
  });

  it("reaches the server again after it died between calls, straight in the 2026 era, running the next call once", async () => {
    const server = await startServer({ retry: { minDelayMs: 30_000, maxDelayMs: 30_000 } });
    const { executor } = await openProject({ mcpServers: { modern: server.entry } });
    expect(await executor.callTool("modern__count", {})).toMatchObject({ ok: true, value: { runs: 1 } });
    const dropped = server.dropsBetweenCalls ? nextEvent(executor, "server:disconnected") : undefined;
    await server.kill();
    await server.restart();
    if (dropped) expect(await dropped).toMatchObject({ server: "modern", willRetry: true });
    const result = await executor.callTool("modern__count", {});
    expect(result).toMatchObject({ ok: true, value: { runs: 1 } });
    expect(server.log.runs("count")).toBe(2);
    // The era was remembered: the new connection was not refused first.
    expect(server.log.events().filter((event) => event.event === "refused")).toHaveLength(1);
  });

  it("never runs a call that is not idempotent twice when the server dies under it", async () => {
    const server = await startServer();
    const { executor } = await openProject({ mcpServers: { modern: server.entry } });
    const pending = executor.callTool("modern__count", { delayMs: 10_000 });
    await eventually(() => server.log.runs("count") === 1, 10_000, "count running");
    await server.kill();
    await server.restart();
    const result = await pending;
    expect(result).toMatchObject({ ok: false, error: { code: "SERVICE_UNAVAILABLE" } });
    expect(server.log.runs("count")).toBe(1);
    expect(await executor.callTool("modern__count", {})).toMatchObject({ ok: true, value: { runs: 1 } });
  });

  it("ends a hung call with TIMEOUT at the server's timeoutMs and keeps the connection", async () => {
    const server = await startServer({ timeoutMs: 500 });
    const { executor } = await openProject({ mcpServers: { modern: server.entry } });
    const result = await executor.callTool("modern__hang", {});
    expect(result).toMatchObject({ ok: false, error: { code: "TIMEOUT" } });
    expect(await executor.callTool("modern__echo", { text: "still here" })).toMatchObject({ ok: true, value: "still here" });
  });
});
