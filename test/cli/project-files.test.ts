/**
 * Which config files a command uses: a missing default file is skipped, a named one must exist,
 * client configs (Claude Desktop, VS Code) work from anywhere, and a missing --root is one message.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createTempProject, toolEntry } from "../helpers/temp-project.js";
import { fixtureServer, runCli } from "./run-cli.js";

const outside: string[] = [];
afterEach(() => {
  for (const folder of outside.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** A folder outside any project, like ~/.config/Claude. */
function outsideFolder(): string {
  const folder = mkdtempSync(path.join(os.tmpdir(), "toolexec-client-config-"));
  outside.push(folder);
  return folder;
}

function toolsProject(options: { mcp?: object | false } = {}) {
  const project = createTempProject({ tools: { tools: [toolEntry("hello", "shell", "hello.sh")] }, mcp: options.mcp ?? false });
  project.write("tools/hello.sh", "echo hello\n");
  return project;
}

describe("project files", () => {
  it("runs a project that has only tools.json, or only mcp.json", async () => {
    const toolsOnly = toolsProject();
    expect(await runCli(["tools", "call", "hello", "--root", toolsOnly.root])).toMatchObject({ code: 0, stdout: "hello\n", stderr: "" });
    const mcpOnly = createTempProject({ mcp: { mcpServers: { fx: fixtureServer() } } });
    const listed = await runCli(["tools", "list", "--root", mcpOnly.root]);
    expect(listed).toMatchObject({ code: 0, stderr: "" });
    expect(listed.stdout).toContain("fx__ping");
  });

  it("--mcp-config takes Claude Desktop's file by absolute path, outside the project", async () => {
    const project = toolsProject();
    const claude = path.join(outsideFolder(), "claude_desktop_config.json");
    // Unchanged, with the app's own settings beside the servers.
    writeFileSync(claude, JSON.stringify({ globalShortcut: "Ctrl+Space", mcpServers: { desktop: fixtureServer() }, preferences: { menuBarEnabled: true } }));
    const result = await runCli(["tools", "call", "desktop__ping", "--root", project.root, "--mcp-config", claude]);
    expect(result).toMatchObject({ code: 0, stdout: "pong\n" });
  });

  it("--mcp-config takes VS Code's { servers } file relative to the current folder, with --no-tools", async () => {
    const folder = outsideFolder();
    writeFileSync(path.join(folder, "mcp.vscode.json"), JSON.stringify({ servers: { code: { type: "stdio", ...fixtureServer() } } }));
    const project = createTempProject({ mcp: false });
    const result = await runCli(["tools", "list", "--root", project.root, "--mcp-config", "mcp.vscode.json", "--no-tools"], { cwd: folder });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("code__ping");
  });

  it("--tools-config uses another file, and --no-mcp leaves mcp.json out", async () => {
    const project = toolsProject({ mcp: { mcpServers: { broken: { command: "/nonexistent/server" } } } });
    project.write("other-tools.json", { tools: [toolEntry("hi", "shell", "hello.sh")] });
    const result = await runCli(["tools", "list", "--root", project.root, "--tools-config", project.path("other-tools.json"), "--no-mcp"]);
    expect(result).toMatchObject({ code: 0, stderr: "" });
    expect(result.stdout).toMatch(/^hi +Test tool hi$/m);
  });

  it("a named file that is missing is an error; a missing --root folder is one message naming it", async () => {
    const project = toolsProject();
    const named = await runCli(["validate", "--root", project.root, "--mcp-config", "nope.json"], { cwd: project.root });
    expect(named.code).toBe(1);
    expect(named.stderr.replaceAll(project.root, "<root>")).toMatchInlineSnapshot(`
      "toolexec validate: --mcp-config nope.json: file not found at <root>/nope.json
      "
    `);
    const root = await runCli(["tools", "list", "--root", "no-such-folder"], { cwd: project.root });
    expect(root.code).toBe(1);
    expect(root.stderr.replaceAll(project.root, "<root>")).toMatchInlineSnapshot(`
      "toolexec tools list: Project folder not found: <root>/no-such-folder (--root no-such-folder)
      "
    `);
  });

  it("a config error in a file outside the project names it by its absolute path", async () => {
    const project = toolsProject();
    const file = path.join(outsideFolder(), "claude_desktop_config.json");
    writeFileSync(file, '{ "mcpServers": { "x": { "command": 3 } } }');
    const result = await runCli(["validate", "--root", project.root, "--mcp-config", file]);
    expect(result.code).toBe(1);
    expect(result.stderr.replaceAll(file, "<file>")).toMatchInlineSnapshot(`
      "Invalid config:
        <file>:1:37 mcpServers.x.command: Expected a string, got 3
      "
    `);
  });
});
