/**
 * What a caller learns when an MCP server is not there: a call of a tool of a configured server
 * that is down says which server, in which state, and why (not "no tool named …"); names that
 * belong to no configured server still get TOOL_NOT_FOUND. And the tool list's changes that come
 * from servers (one connects late, one fails for good, one sends list_changed) reach hosts as
 * `tools:changed`.
 */
import { mkdirSync, rmSync, writeFileSync, unlinkSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createExecutor } from "../../src/index.js";
import { explainMissingServerTool } from "../../src/plugins/mcp/missing-tool.js";
import { createTempProject } from "../helpers/temp-project.js";
import { eventually, fixtureLog, freePort, nextEvent, openProject, silentLogger, stdioFixture, track, startSilentServer } from "./mcp-test-helpers.js";


describe("a call of a tool of a server that is down", () => {
  it("answers with the server's state and last error, and TOOL_NOT_FOUND only for names no server owns", async () => {
    const { executor } = await openProject(
      {
        mcpServers: {
          good: stdioFixture(),
          ghost: { command: "no-such-mcp-server" },
          off: { command: "x", enabled: false },
          refused: { type: "http", url: `http://127.0.0.1:${await freePort()}/mcp`, retry: { minDelayMs: 60_000 } },
          hung: { type: "http", url: `http://127.0.0.1:${await startSilentServer()}/mcp` },
          // Its names start with good's prefix too: `good___x` is its own, `good__echo` is good's.
          good_: { command: "no-such-mcp-server" },
        },
      },
      { mcp: { startupTimeoutMs: 1_000 } },
    );
    await eventually(() => executor.servers().find((server) => server.name === "good")?.state === "connected", 10_000, "good connected");
    const call = async (name: string) => {
      const result = await executor.callTool(name, {});
      if (result.ok) throw new Error(`${name} succeeded`);
      return { code: result.error.code, message: result.error.message.replace(/in \d+\.\d s/, "in N s"), details: result.error.details };
    };

    const ghost = await call("ghost__x");
    expect(ghost.code).toBe("SERVICE_UNAVAILABLE");
    expect(ghost.message).toMatchInlineSnapshot(`"Cannot call "ghost__x": server "ghost" could not be started: spawn no-such-mcp-server ENOENT"`);
    expect(ghost.details).toEqual({
      server: "ghost",
      state: "failed",
      lastError: { code: "SERVICE_UNAVAILABLE", message: 'Server "ghost" could not be started: spawn no-such-mcp-server ENOENT' },
      nextAttemptAt: expect.any(Number),
    });
    expect((await call("off__x")).message).toMatchInlineSnapshot(`"Cannot call "off__x": server "off" is disabled ("enabled": false or "disabled": true in mcp.json)"`);
    const refused = await call("refused__echo");
    expect(refused).toMatchObject({ code: "SERVICE_UNAVAILABLE", details: { server: "refused", state: "retrying", nextAttemptAt: expect.any(Number) } });
    expect(refused.message).toMatchInlineSnapshot(`"Cannot call "refused__echo": server "refused" is unreachable (ECONNREFUSED); next attempt in N s"`);
    const hung = await call("hung__echo");
    expect(hung).toMatchObject({ code: "SERVICE_UNAVAILABLE", details: { server: "hung", state: "connecting" } });
    expect(hung.message).toMatchInlineSnapshot(`"Cannot call "hung__echo": server "hung" is still connecting; its tools are listed once it is up"`);

    // Attribution by the longest exposed prefix.
    expect(await call("good___x")).toMatchObject({ code: "SERVICE_UNAVAILABLE", details: { server: "good_" } });
    // A connected server's missing tool is a typo; a name of no server is unknown.
    expect(await call("good__ecko")).toMatchObject({ code: "TOOL_NOT_FOUND", message: 'No tool named "good__ecko"; did you mean "good__echo"?' });
    expect(await call("nobody__x")).toMatchObject({ code: "TOOL_NOT_FOUND" });
    expect(await call("ghost")).toMatchObject({ code: "TOOL_NOT_FOUND" });
    expect(await executor.callTool("good__echo", { text: "still here" })).toMatchObject({ ok: true, value: "still here" });
  });

  it("is answered by a host plugin's explainMissingTool too, and a throwing one is ignored", async () => {
    const project = createTempProject({ tools: { tools: [] }, mcp: { mcpServers: {} } });
    const executor = track(
      await createExecutor({
        root: project.root,
        watch: false,
        logDir: false,
        logger: silentLogger,
        plugins: [
          {
            name: "broken",
            start: async () => ({ listTools: () => [], callTool: async () => ({ ok: true, value: null }), close: async () => {}, explainMissingTool: () => { throw new Error("oops"); } }),
          },
          {
            name: "lazy",
            start: async () => ({
              listTools: () => [],
              callTool: async () => ({ ok: true, value: null }),
              close: async () => {},
              explainMissingTool: (name) => (name.startsWith("lazy_") ? { code: "SERVICE_UNAVAILABLE", message: `${name} is still loading` } : undefined),
            }),
          },
        ],
      }),
    );
    expect(await executor.callTool("lazy_thing", {})).toMatchObject({ ok: false, error: { code: "SERVICE_UNAVAILABLE", message: "lazy_thing is still loading" } });
    expect(await executor.callTool("other", {})).toMatchObject({ ok: false, error: { code: "TOOL_NOT_FOUND" } });
  });
});

describe("explainMissingServerTool", () => {
  const server = { source: "config" as const, transport: "http" as const, tools: [], attempts: 1 };
  it("quotes a last error of another form whole, and keeps SERVER_NOT_ALLOWED as the code", () => {
    const refused = explainMissingServerTool("docs__x", [{ ...server, name: "docs", state: "failed", lastError: { code: "SERVER_NOT_ALLOWED", message: "127.0.0.1 is a loopback address" } }]);
    expect(refused).toEqual({
      code: "SERVER_NOT_ALLOWED",
      message: 'Cannot call "docs__x": server "docs" failed: 127.0.0.1 is a loopback address',
      details: { server: "docs", state: "failed", lastError: { code: "SERVER_NOT_ALLOWED", message: "127.0.0.1 is a loopback address" } },
    });
    const retrying = explainMissingServerTool("docs__x", [{ ...server, name: "docs", state: "retrying", nextAttemptAt: 2_500, lastError: { code: "TIMEOUT", message: "initialize timed out" } }], 1_000);
    expect(retrying?.message).toBe('Cannot call "docs__x": server "docs" is not reachable: initialize timed out; next attempt in 1.5 s');
    // A down server and a connected one share the prefix `my_server__`: the down one explains the miss.
    const shared = [{ ...server, name: "my_server", state: "connected" as const }, { ...server, name: "my server", state: "disabled" as const }];
    expect(explainMissingServerTool("my_server__x", shared)?.details).toEqual({ server: "my server", state: "disabled" });
  });
});

describe("tools:changed from MCP servers", () => {
  it("reaches hosts when a server connects late, sends list_changed, and fails for good after a drop", async () => {
    const down = path.join(fixtureLog().file + ".down");
    writeFileSync(down, "");
    const log = fixtureLog();
    const project = createTempProject({ tools: { tools: [] }, mcp: { mcpServers: {} } });
    const folder = path.join(project.root, "server-home");
    mkdirSync(folder);
    project.write("mcp.json", {
      mcpServers: {
        late: stdioFixture(undefined, { env: { FIXTURE_DOWN: down }, retry: { minDelayMs: 50, maxDelayMs: 200 } }),
        // Its cwd is removed below, so once it dies it cannot be started again: `failed`.
        homed: stdioFixture(log.file, { cwd: folder, retry: { minDelayMs: 50, maxDelayMs: 200 } }),
      },
    });
    const executor = track(await createExecutor({ root: project.root, watch: false, logDir: false, logger: silentLogger, mcp: { startupTimeoutMs: 1_000 } }));
    const names = async () => (await executor.listTools()).map((tool) => tool.name);
    expect(await names()).not.toContain("late__echo");
    // On a loaded machine `homed` may miss the 1 s start-up wait and connect just after it.
    await eventually(async () => (await names()).includes("homed__echo"), 10_000, "homed connected");

    const joined = nextEvent(executor, "tools:changed", ({ tools }) => tools.includes("late__echo"));
    unlinkSync(down);
    expect((await joined).tools).toContain("homed__echo");

    const added = nextEvent(executor, "tools:changed", ({ tools }) => tools.includes("late__fresh"));
    expect(await executor.callTool("late__add_tool", { name: "fresh" })).toMatchObject({ ok: true });
    await added;

    const gone = nextEvent(executor, "tools:changed", ({ tools }) => !tools.includes("homed__echo"));
    const pid = log.events().find((event) => event.event === "started")!.pid;
    rmSync(folder, { recursive: true });
    process.kill(pid, "SIGKILL");
    expect((await gone).tools).toContain("late__fresh");
    expect(executor.servers().find((server) => server.name === "homed")).toMatchObject({ state: "failed" });
    // Its tools are gone from the list, and a call says why.
    expect(await executor.callTool("homed__echo", { text: "x" })).toMatchObject({ ok: false, error: { code: "SERVICE_UNAVAILABLE", details: { server: "homed", state: "failed" } } });
  });
});
