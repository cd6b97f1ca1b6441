/**
 * A stdio server: the shared resilience scenarios (resilience-suite.ts), plus what only a child
 * process has: it is respawned on demand after it was killed, and it is stopped when the executor closes.
 */
import { describe, expect, it } from "vitest";
import { eventually, fixtureLog, isAlive, nextEvent, openProject, stdioFixture } from "./mcp-test-helpers.js";
import { resilienceSuite } from "./resilience-suite.js";
import { stdioDriver } from "./transport-driver.js";

const pids = (log: ReturnType<typeof fixtureLog>) => log.events().filter((event) => event.event === "started").map((event) => event.pid);

describe("stdio server", () => {
  resilienceSuite(stdioDriver);

  it("is respawned on the next call after it was killed, with the default retry policy", async () => {
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

  it("stops its servers when the executor closes", async () => {
    const log = fixtureLog();
    const { executor } = await openProject({ mcpServers: { fixture: stdioFixture(log.file) } });
    const [pid] = pids(log);
    expect(isAlive(pid!)).toBe(true);
    await executor.close();
    await eventually(() => !isAlive(pid!), 5_000, "the server process gone");
  });
});
