/**
 * One server that cannot be resolved here (an unset variable, a bad URL) or that is disabled never
 * takes down the rest: a Claude Desktop file with Cline keys works unchanged, from the library and
 * from the CLI, and each broken piece says why.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createExecutor, isConfigError, type ExecutorEvents } from "../../src/index.js";
import { loadProjectConfig } from "../../src/config.js";
import { configErrorText } from "../config/config-test-helpers.js";
import { runCli } from "../../src/cli/main.js";
import { createTempProject, toolEntry } from "../helpers/temp-project.js";
import { silentLogger, stdioFixture, track } from "./mcp-test-helpers.js";

const UNSET = "TOOLEXEC_TEST_UNSET_GITHUB_TOKEN";

/** Claude Desktop's file as people have it: a token not set yet, a server switched off in Cline, one that works. */
function claudeDesktopProject() {
  const project = createTempProject({
    tools: { tools: [toolEntry("echo", "shell", "echo.sh")] },
    mcp: {
      globalShortcut: "Ctrl+Space",
      mcpServers: {
        github: { command: "npx", args: ["-y", "@modelcontextprotocol/server-github"], env: { GITHUB_PERSONAL_ACCESS_TOKEN: `\${${UNSET}}` } },
        "Old Files": { command: "toolexec-test-no-such-command", disabled: true, autoApprove: ["read_file"], alwaysAllow: ["list"] },
        "Good Server": stdioFixture(),
      },
    },
  });
  project.useFixtures("echo.sh");
  return project;
}

describe("a broken server entry makes only that server unavailable", () => {
  it("library: the working server's and the local tools work; servers(), configStatus() and events say why the others do not", async () => {
    delete process.env[UNSET];
    const project = claudeDesktopProject();
    const unavailable: ExecutorEvents["server:unavailable"][] = [];
    const executor = track(await createExecutor({ root: project.root, logDir: false, watch: false, logger: silentLogger }));
    executor.on("server:unavailable", (payload) => unavailable.push(payload));
    await new Promise((resolve) => setImmediate(resolve));

    expect(await executor.callTool("good_server__echo", { text: "hi" })).toMatchObject({ ok: true, value: "hi" });
    expect(await executor.callTool("echo", { text: "local" })).toMatchObject({ ok: true, value: { text: "local" } });
    expect(executor.servers().map(({ name, configKey, state, lastError }) => ({ name, configKey, state, lastError }))).toEqual([
      { name: "github", configKey: undefined, state: "unavailable", lastError: { code: "SERVICE_UNAVAILABLE", message: `Server "github" is unavailable: needs ${UNSET}, which is not set` } },
      { name: "old_files", configKey: "Old Files", state: "disabled", lastError: undefined },
      { name: "good_server", configKey: "Good Server", state: "connected", lastError: undefined },
    ]);
    expect(unavailable).toEqual([{ server: "github", reason: `needs ${UNSET}, which is not set` }]);
    const call = await executor.callTool("github__create_issue", {});
    expect(call).toMatchObject({ ok: false, error: { code: "SERVICE_UNAVAILABLE", message: `Cannot call "github__create_issue": server "github" is unavailable: needs ${UNSET}, which is not set` } });
    const warnings = executor.configStatus().warnings.map((warning) => `${warning.path}: ${warning.message}`);
    expect(warnings).toEqual([
      'globalShortcut: Ignored: "globalShortcut" is not a toolexec key (another client\'s setting in a shared file is fine); toolexec reads mcpServers, servers, inputs, trust, serverDefaults, maxConcurrentStarts',
      `mcpServers.github.env.GITHUB_PERSONAL_ACCESS_TOKEN: Environment variable "${UNSET}" is not set on the host (server "github"); set it, or give a default with \${${UNSET}:-value}; server "github" is unavailable until then (the other servers run)`,
      'mcpServers["Old Files"].autoApprove: Ignored: "autoApprove" and "alwaysAllow" ("Old Files") are other clients\' approval lists, not toolexec\'s trust settings; to hold new or changed tools for review, set "trust" (see docs/tool-trust.md)',
    ]);
  });

  it("strict: the same file fails start-up, naming the unresolvable entry", async () => {
    delete process.env[UNSET];
    const project = claudeDesktopProject();
    const error = await createExecutor({ root: project.root, logDir: false, watch: false, logger: silentLogger, strict: true }).then(track, (caught: unknown) => caught);
    expect(isConfigError(error)).toBe(true);
    expect((error as Error).message).toContain(`mcpServers.github.env.GITHUB_PERSONAL_ACCESS_TOKEN: Environment variable "${UNSET}" is not set on the host`);
  });

  it("CLI: `tools call` reaches the working server and the local tool; `servers` shows the other two with their reasons", async () => {
    delete process.env[UNSET];
    const project = claudeDesktopProject();
    const run = async (...args: string[]) => {
      const output = { out: [] as string[], err: [] as string[] };
      const code = await runCli([...args, "--root", project.root], { out: (text) => output.out.push(text), err: (text) => output.err.push(text) });
      return { code, out: output.out.join("\n"), err: output.err.join("\n") };
    };
    expect(await run("tools", "call", "good_server__echo", "--args", '{"text":"from the CLI"}')).toMatchObject({ code: 0, out: "from the CLI" });
    expect(await run("tools", "call", "echo", "--args", '{"text":"local"}')).toMatchObject({ code: 0 });
    const servers = await run("servers");
    expect(servers.code).toBe(1);
    expect(servers.out).toMatchInlineSnapshot(`
      "github       unavailable  stdio  Server "github" is unavailable: needs TOOLEXEC_TEST_UNSET_GITHUB_TOKEN, which is not set
      old_files    disabled     stdio  disabled in mcp.json  (mcp.json key "Old Files")
      good_server  connected    stdio  16 tools  (mcp.json key "Good Server")

      1 of 3 servers connected"
    `);
  });

  it("CLI: each config warning is printed once per content of its file, not by every command", async () => {
    delete process.env[UNSET];
    const project = claudeDesktopProject();
    const warningsOf = async () => {
      const err: string[] = [];
      await runCli(["tools", "list", "--root", project.root], { out: () => {}, err: (text) => err.push(text) });
      return err.join("\n").split("\n").filter((line) => line.startsWith("warning: mcp.json")).map((line) => line.replace(/:\d+:\d+ /, " ").slice(0, 60));
    };
    expect(await warningsOf()).toEqual([
      'warning: mcp.json globalShortcut: Ignored: "globalShortcut" ',
      "warning: mcp.json mcpServers.github.env.GITHUB_PERSONAL_ACCE",
      'warning: mcp.json mcpServers["Old Files"].autoApprove: Ignor',
    ]);
    expect(await warningsOf()).toEqual([]);
    // An edit of the file (here only its layout) shows its warnings again.
    project.write("mcp.json", `${readFileSync(project.path("mcp.json"), "utf8")}\n`);
    expect(await warningsOf()).toHaveLength(3);
  });

  it("what only this environment lacks leaves each server unavailable with its reason; an entry's own mistake stays an error", async () => {
    delete process.env[UNSET];
    const mcpServers = {
      scheme: { type: "sse", url: "ftp://example.com/sse" },
      relative: { url: "/mcp" },
      unset: { type: "http", url: "https://example.com/mcp", headers: { Authorization: `Bearer \${${UNSET}}` } },
      prompt: { command: "x", env: { KEY: "${input:toolexec-test-unset}" } },
      dotenv: { command: "x", envFile: "missing.env" },
    };
    const project = createTempProject({ tools: { tools: [] }, mcp: { mcpServers } });
    const config = await loadProjectConfig({ root: project.root });
    expect(config.sections.mcp.map((server) => [server.name, server.unavailable?.replace(project.root, "<root>")])).toEqual([
      ["scheme", 'Expected an http: or https: URL, got "ftp:"'],
      ["relative", 'Expected an absolute http(s) URL, got "/mcp"'],
      ["unset", `needs ${UNSET}, which is not set`],
      ["prompt", "${input:toolexec-test-unset} is a VS Code prompt, which toolexec cannot show; set the environment variable TOOLEXEC_TEST_UNSET to supply it"],
      ["dotenv", "envFile not found at <root>/missing.env"],
    ]);
    expect(config.warnings).toHaveLength(5);
    const both = createTempProject({ tools: { tools: [] }, mcp: { mcpServers: { old: { command: "x", enabled: true, disabled: true, env: { T: `\${${UNSET}}` } } } } });
    expect(await configErrorText(both)).toMatchInlineSnapshot(`
      "2 problems in mcp.json:
        mcp.json:6:7 mcpServers.old.disabled: Give either "enabled" or "disabled" (Cline, Roo Code), not both
        mcp.json:8:14 mcpServers.old.env.T: Environment variable "TOOLEXEC_TEST_UNSET_GITHUB_TOKEN" is not set on the host (server "old"); set it, or give a default with \${TOOLEXEC_TEST_UNSET_GITHUB_TOKEN:-value}"
    `);
  });
});
