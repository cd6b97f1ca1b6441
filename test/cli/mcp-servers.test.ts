/**
 * MCP servers seen from the CLI: a command starts only the servers it needs, warns about servers
 * whose tools are missing, and prints nothing about work its own close interrupts.
 */
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createTempProject, toolEntry } from "../helpers/temp-project.js";
import { fixtureServer, runCli } from "./run-cli.js";

/** A project with one local tool and the given servers. */
function project(servers: Record<string, object>) {
  const created = createTempProject({ tools: { tools: [toolEntry("hello", "shell", "hello.sh")] }, mcp: { mcpServers: servers } });
  created.write("tools/hello.sh", "echo hello\n");
  return created;
}

describe("toolexec and MCP servers", () => {
  it("a local tool call starts no MCP server; server__tool starts only that server", async () => {
    const log = `${createTempProject().root}/started.log`;
    // Slow to start, as servers fetched by npx are. The log, written before the delay, is what shows
    // a server started; the delay only makes the call to one wait, so it need not be long.
    const slow = (name: string) => fixtureServer({ SERVER_NAME: name, STARTED_LOG: log, START_DELAY_MS: "300" });
    const root = project({ alpha: slow("alpha"), beta: slow("beta") }).root;

    expect(await runCli(["tools", "call", "hello", "--root", root])).toMatchObject({ code: 0, stdout: "hello\n", stderr: "" });
    expect(existsSync(log)).toBe(false);

    expect(await runCli(["tools", "call", "alpha__ping", "--root", root])).toMatchObject({ code: 0, stdout: "pong\n", stderr: "" });
    expect(readFileSync(log, "utf8")).toBe("alpha\n");
  });

  it("tools list and validate warn on stderr about a server that failed, and still exit 0", async () => {
    const root = project({ ghost: { command: "/nonexistent/mcp-server" }, fx: fixtureServer() }).root;
    const list = await runCli(["tools", "list", "--root", root]);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain("fx__ping");
    expect(list.stderr).toMatchInlineSnapshot(`
      "warning: 1 MCP server is not connected, so its tools are missing:
        ghost  failed       Server "ghost" could not be started: spawn /nonexistent/mcp-server ENOENT
      Run \`npx toolexec servers\` for details.
      "
    `);
    const validate = await runCli(["validate", "--root", root]);
    expect(validate).toMatchObject({ code: 0, stdout: "ok: 1 tool(s) in tools.json, 2 server(s) in mcp.json\n", stderr: list.stderr });
    const json = await runCli(["validate", "--root", root, "--json"]);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: true, serverWarnings: [{ server: "ghost", state: "failed", lastError: { code: "SERVICE_UNAVAILABLE" } }] });
  });

  it("validate names a server that needs an unset variable once, as a broken piece, with its located warning once", async () => {
    const root = project({ gh: { command: "node", args: ["server.js"], env: { TOKEN: "${TOOLEXEC_TEST_UNSET_TOKEN}" } }, fx: fixtureServer() }).root;
    const validate = await runCli(["validate", "--root", root]);
    expect(validate.code).toBe(1);
    const lines = validate.stderr.trimEnd().split("\n");
    expect(lines.slice(0, 2)).toEqual(['error: 1 broken: server "gh"; still working: 1 tool(s), 1 server(s)', '  MCP server "gh" is unavailable: needs TOOLEXEC_TEST_UNSET_TOKEN, which is not set']);
    expect(lines.slice(2)).toEqual(["warnings:", expect.stringMatching(/^ {2}mcp\.json:\d+:\d+ mcpServers\.gh\.env\.TOKEN: Environment variable "TOOLEXEC_TEST_UNSET_TOKEN" is not set/)]);
  });

  it("a call to a failed server's tool exits 1 and says why the server is not there", async () => {
    const root = project({ ghost: { command: "/nonexistent/mcp-server" } }).root;
    const result = await runCli(["tools", "call", "ghost__lookup", "--root", root]);
    expect(result.code).toBe(1);
    // TOOL_NOT_FOUND until the MCP plugin answers SERVICE_UNAVAILABLE for a known server that is down.
    expect(result.stderr).toMatch(/^error (TOOL_NOT_FOUND|SERVICE_UNAVAILABLE): /);
    expect(result.stderr).toContain('Server "ghost" could not be started: spawn /nonexistent/mcp-server ENOENT');
  });

  it("prints no warning about a tool-list refresh that its own close cuts off", async () => {
    // `ping` announces a changed tool list just before it answers; the refresh is still waiting when the CLI closes.
    const root = project({ relist: fixtureServer({ RELIST_ON_PING: "1" }) }).root;
    expect(await runCli(["tools", "call", "relist__ping", "--root", root])).toMatchObject({ code: 0, stdout: "pong\n", stderr: "" });
  });
});
