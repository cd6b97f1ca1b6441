/**
 * Start-up with servers that cannot be reached: the executor starts anyway, on time, with the
 * tools of the servers that answered; the others are retried in the background, and events and
 * `servers()` (and `toolexec servers`) say why.
 */
import { execFile } from "node:child_process";
import { describe, expect, it } from "vitest";
import { createExecutor, type ExecutorEvents } from "../../src/index.js";
import { runCli } from "../../src/cli/main.js";
import { createTempProject } from "../helpers/temp-project.js";
import { REPOSITORY, eventually, freePort, silentLogger, startFixtureServer, stdioFixture, track, startSilentServer } from "./mcp-test-helpers.js";


async function brokenProject() {
  const refused = await freePort();
  const hung = await startSilentServer();
  return createTempProject({
    tools: { tools: [] },
    mcp: {
      mcpServers: {
        good: stdioFixture(),
        refused: { type: "http", url: `http://127.0.0.1:${refused}/mcp`, retry: { minDelayMs: 60_000 } },
        missing: { command: "toolexec-test-no-such-command" },
        hung: { type: "http", url: `http://127.0.0.1:${hung}/mcp` },
        off: { command: "x", enabled: false },
      },
    },
  });
}

describe("start-up", () => {
  it("is not blocked by servers that are down, missing or hung", async () => {
    const project = await brokenProject();
    const startedAt = Date.now();
    const executor = track(await createExecutor({ root: project.root, watch: false, logDir: false, logger: silentLogger, mcp: { startupTimeoutMs: 1_000 } }));
    // Held start-up events arrive just after createExecutor resolved, so a listener added now hears them.
    const disconnected: Array<ExecutorEvents["server:disconnected"]> = [];
    executor.on("server:disconnected", (event) => disconnected.push(event));
    // The hung server holds start-up for startupTimeoutMs (1 s), not its 30 s connection timeout.
    expect(Date.now() - startedAt).toBeLessThan(8_000);

    // Start-up waited at most about 1 s for anyone; the good server is up by then or soon after.
    await eventually(() => executor.servers().find((server) => server.name === "good")?.state === "connected", 10_000, "the good server connected");
    expect((await executor.listTools()).map((tool) => tool.name)).toContain("good__echo");
    expect((await executor.listTools()).every((tool) => tool.name.startsWith("good__") || tool.name === "read_result")).toBe(true);
    const states = Object.fromEntries(executor.servers().map((server) => [server.name, server]));
    expect(states.good).toMatchObject({ state: "connected" });
    expect(states.refused).toMatchObject({ state: "retrying", attempts: 1, lastError: { code: "SERVICE_UNAVAILABLE", message: 'Server "refused" is unreachable (ECONNREFUSED)' } });
    expect(states.refused!.nextAttemptAt).toBeGreaterThan(Date.now() + 10_000);
    expect(states.missing).toMatchObject({ state: "failed", lastError: { message: expect.stringContaining("ENOENT") } });
    expect(states.hung).toMatchObject({ state: "connecting" });
    expect(states.off).toMatchObject({ state: "disabled" });

    await new Promise((resolve) => setImmediate(resolve));
    // Which of the two fails first is a race between a socket and a spawn.
    expect(disconnected.map(({ server, willRetry }) => ({ server, willRetry })).sort((a, b) => a.server.localeCompare(b.server))).toEqual([
      { server: "missing", willRetry: false },
      { server: "refused", willRetry: true },
    ]);
    // A tool of a server that never connected is absent, not hanging; a call says which server is down.
    expect(await executor.callTool("refused__echo", { text: "x" })).toMatchObject({ ok: false, error: { code: "SERVICE_UNAVAILABLE", details: { server: "refused", state: "retrying" } } });
    // Closing does not wait for the hung server's connection attempt to time out.
    const closingAt = Date.now();
    await executor.close();
    expect(Date.now() - closingAt).toBeLessThan(5_000);
  });

  it("`toolexec servers` shows each server's state, and exits 1 while any is not connected", async () => {
    const project = await brokenProject();
    project.write("mcp.json", { mcpServers: { good: stdioFixture(), refused: { type: "http", url: `http://127.0.0.1:${await freePort()}/mcp`, retry: { minDelayMs: 60_000, maxDelayMs: 60_000 } }, missing: { command: "toolexec-test-no-such-command" }, off: { command: "x", enabled: false } } });
    const output = { out: [] as string[], err: [] as string[] };
    const code = await runCli(["servers", "--root", project.root], { out: (text) => output.out.push(text), err: (text) => output.err.push(text) });
    expect(code).toBe(1);
    const text = output.out.join("\n").replace(/\d\d:\d\d:\d\d \(in \d+\.\d s\)/, "HH:MM:SS (in N s)").replace(/:\d+\/mcp/g, ":PORT/mcp");
    expect(text).toMatchInlineSnapshot(`
      "good     connected    stdio  16 tools
      refused  retrying     http   next attempt HH:MM:SS (in N s): Server "refused" is unreachable (ECONNREFUSED)
      missing  failed       stdio  Server "missing" could not be started: spawn toolexec-test-no-such-command ENOENT
      off      disabled     stdio  disabled in mcp.json

      1 of 4 servers connected"
    `);
    const json = { out: [] as string[], err: [] as string[] };
    await runCli(["servers", "--root", project.root, "--json"], { out: (line) => json.out.push(line), err: (line) => json.err.push(line) });
    expect(JSON.parse(json.out.join("\n"))).toMatchObject([{ name: "good", state: "connected" }, { name: "refused", state: "retrying" }, { name: "missing", state: "failed" }, { name: "off", state: "disabled" }]);
  });

  it("lets the host process exit once the executor is closed (no timer or socket left behind)", async () => {
    const server = await startFixtureServer("http");
    const project = createTempProject({ tools: { tools: [] }, mcp: { mcpServers: { local: stdioFixture(), remote: { type: "http", url: server.url } } } });
    const script = [
      `import { createExecutor } from ${JSON.stringify(`${REPOSITORY}/src/index.ts`)};`,
      `const executor = await createExecutor({ root: ${JSON.stringify(project.root)}, watch: false, logDir: false });`,
      `for (const tool of ["local__echo", "remote__echo"]) if (!(await executor.callTool(tool, { text: "x" })).ok) process.exit(3);`,
      "await executor.close();",
      "console.log(`closed ${Date.now()}`);",
    ].join("\n");
    const { stdout, exitedAt } = await new Promise<{ stdout: string; exitedAt: number }>((resolve, reject) => {
      execFile(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { cwd: REPOSITORY, timeout: 20_000 }, (error, out) => (error ? reject(error) : resolve({ stdout: out, exitedAt: Date.now() })));
    });
    const closedAt = Number(/closed (\d+)/.exec(stdout)?.[1]);
    // Exits right after close; a leftover timer (a 30 s connection timeout, say) would hold it.
    expect(exitedAt - closedAt).toBeLessThan(5_000);
  });
});
