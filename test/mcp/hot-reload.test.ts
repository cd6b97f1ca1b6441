/** Editing mcp.json while running: only changed servers reconnect, removed ones close, tools update live. */
import { describe, expect, it } from "vitest";
import { createExecutor } from "../../src/index.js";
import { createTempProject } from "../helpers/temp-project.js";
import { eventually, fixtureLog, isAlive, nextEvent, silentLogger, stdioFixture, track } from "./mcp-test-helpers.js";

const startedPids = (log: ReturnType<typeof fixtureLog>) => log.events().filter((event) => event.event === "started").map((event) => event.pid);

describe("hot reload of mcp.json", () => {
  it("reconnects only the changed server, closes the removed one and starts the added one", async () => {
    const logs = { kept: fixtureLog(), changed: fixtureLog(), removed: fixtureLog(), added: fixtureLog() };
    const project = createTempProject({
      tools: { tools: [] },
      mcp: { mcpServers: { kept: stdioFixture(logs.kept.file), changed: stdioFixture(logs.changed.file), removed: stdioFixture(logs.removed.file) } },
    });
    const executor = track(await createExecutor({ root: project.root, logDir: false, logger: silentLogger, reloadDebounceMs: 20 }));
    const [kept] = startedPids(logs.kept);
    const [changed] = startedPids(logs.changed);
    const [removed] = startedPids(logs.removed);

    const connected: string[] = [];
    executor.on("server:connected", ({ server }) => connected.push(server));
    const reloaded = nextEvent(executor, "config:reloaded");
    project.write("mcp.json", {
      mcpServers: {
        kept: stdioFixture(logs.kept.file),
        changed: stdioFixture(logs.changed.file, { timeoutMs: 9_000 }),
        added: stdioFixture(logs.added.file),
      },
    });
    const event = await reloaded;
    expect(event.restarted).toEqual(["mcp"]);
    expect(event.tools).toContain("added__echo");
    expect(event.tools.some((tool) => tool.startsWith("removed__"))).toBe(false);
    // Start-up's connections reach a listener added right after createExecutor, then the reload's.
    expect(connected.slice(0, 3).sort()).toEqual(["changed", "kept", "removed"]);
    expect(connected.slice(3).sort()).toEqual(["added", "changed"]);

    expect(startedPids(logs.kept)).toEqual([kept]);
    expect(isAlive(kept!)).toBe(true);
    expect(startedPids(logs.changed)).toHaveLength(2);
    await eventually(() => !isAlive(changed!) && !isAlive(removed!), 5_000, "the changed server's old process and the removed server gone");

    expect(executor.servers().map((server) => server.name)).toEqual(["kept", "changed", "added"]);
    expect(await executor.callTool("kept__echo", { text: "a" })).toMatchObject({ ok: true, value: "a" });
    expect(await executor.callTool("added__echo", { text: "b" })).toMatchObject({ ok: true, value: "b" });
    expect(await executor.callTool("removed__echo", { text: "c" })).toMatchObject({ ok: false, error: { code: "TOOL_NOT_FOUND" } });
    expect((await executor.listTools()).find((tool) => tool.name === "changed__echo")).toBeDefined();
  });

  it("keeps the running servers when an edit is invalid", async () => {
    const log = fixtureLog();
    const project = createTempProject({ tools: { tools: [] }, mcp: { mcpServers: { kept: stdioFixture(log.file) } } });
    const executor = track(await createExecutor({ root: project.root, logDir: false, logger: silentLogger, reloadDebounceMs: 20 }));
    const failed = nextEvent(executor, "config:error");
    project.write("mcp.json", { mcpServers: { kept: stdioFixture(log.file), bad: { command: "x", url: "https://example.com" } } });
    expect((await failed).message).toMatch(/^mcp\.json:\d+:\d+ mcpServers\.bad\.url: Expected either "command" \(a stdio server\) or "url"/);
    expect(startedPids(log)).toHaveLength(1);
    expect(await executor.callTool("kept__echo", { text: "still" })).toMatchObject({ ok: true, value: "still" });
  });
});
