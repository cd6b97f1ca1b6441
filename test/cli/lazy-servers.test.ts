/**
 * Lazy stdio servers seen from the CLI (the built binary, real processes): the first command starts a
 * server to learn its tools and keeps the list; later `tools list` and `servers` start nothing, show
 * the server `stopped` with its kept tools, and exit 0; `tools call` starts only the server it needs.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createTempProject } from "../helpers/temp-project.js";
import { FIXTURES } from "../mcp/mcp-test-helpers.js";
import { runCli } from "./run-cli.js";

describe("lazy servers in the CLI", () => {
  it("tools list and servers use the kept list without starting the server; tools call starts it", async () => {
    const project = createTempProject({ tools: { tools: [] } });
    const log = project.path("lifecycle.jsonl");
    const entry = (name: string) => ({ command: process.execPath, args: [path.join(FIXTURES, "lifecycle-server.mjs")], env: { LIFECYCLE_LOG: log, SERVER_NAME: name } });
    project.write("mcp.json", { serverDefaults: { start: "lazy" }, mcpServers: { alpha: entry("alpha"), beta: entry("beta") } });
    const spawned = () => (existsSync(log) ? readFileSync(log, "utf8").split("\n").filter((line) => line.includes('"spawned"')).length : 0);

    const first = await runCli(["tools", "list", "--root", project.root]);
    expect(first).toMatchObject({ code: 0, stderr: "" });
    expect(spawned()).toBe(2);

    const listed = await runCli(["tools", "list", "--root", project.root]);
    expect(listed).toMatchObject({ code: 0, stderr: "" });
    expect(listed.stdout).toContain("alpha__echo");
    expect(listed.stdout).toContain("beta__wait");
    expect(listed.stdout).toContain("5 tools"); // four from the kept list, and read_result
    const servers = await runCli(["servers", "--root", project.root]);
    expect(servers.code).toBe(0);
    expect(servers.stdout).toMatch(/^alpha {2}stopped {6}stdio {2}2 tools from its last run; lazy: the first call starts it$/m);
    expect(servers.stdout).toContain("0 of 2 servers connected, 2 stopped until a call needs them");
    expect(spawned()).toBe(2);

    expect(await runCli(["tools", "call", "beta__echo", "--args", '{"text":"hi"}', "--root", project.root])).toMatchObject({ code: 0, stdout: "hi\n", stderr: "" });
    expect(spawned()).toBe(3);
  }, 60_000);
});
