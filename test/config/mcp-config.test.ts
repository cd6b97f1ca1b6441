/** mcp.json's top level, in the shapes Claude Desktop, Cursor, Claude Code and VS Code write. */
import { describe, expect, it } from "vitest";
import { loadProjectConfig } from "../../src/config.js";
import { SERVER_NAME_PATTERN } from "../../src/core/tool-names.js";
import { createTempProject } from "../helpers/temp-project.js";
import { configErrorText, loadConfigError } from "./config-test-helpers.js";

/** A project with a valid, empty tools.json and `mcp` as mcp.json. */
function projectWithMcp(mcp: object | string | false) {
  return createTempProject({ tools: { tools: [] }, mcp });
}

describe("mcp.json missing", () => {
  it("throws CONFIG_MISSING naming the absolute path and how to fix it", async () => {
    const project = projectWithMcp(false);
    const error = await loadConfigError(project);
    expect(error.code).toBe("CONFIG_MISSING");
    expect(await configErrorText(project)).toMatchInlineSnapshot(`"mcp.json: File not found at <root>/mcp.json; create it with { "mcpServers": {} } or pass \`mcpConfig: false\` to run without MCP servers"`);
  });

  it("is fine with `mcpConfig: false`", async () => {
    const project = projectWithMcp(false);
    const config = await loadProjectConfig({ root: project.root, mcpConfig: false });
    expect(config.sections.mcp).toEqual([]);
    expect(config.files).toEqual([project.path("tools.json")]);
  });

  it("reads a custom file name", async () => {
    const project = projectWithMcp(false);
    project.write(".vscode/mcp.json", { servers: { docs: { type: "http", url: "https://example.com/mcp" } } });
    const config = await loadProjectConfig({ root: project.root, mcpConfig: ".vscode/mcp.json" });
    expect(config.sections.mcp).toMatchObject([{ name: "docs", transport: "http", url: "https://example.com/mcp" }]);
    expect(config.files).toContain(project.path(".vscode/mcp.json"));
  });
});

describe("mcp.json shapes", () => {
  it("accepts mcpServers and resolves each entry, in file order", async () => {
    const servers = {
      files: { command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "."], env: { DEBUG: "1" } },
      remote: { type: "sse", url: "https://example.com/sse", headers: { Authorization: "Bearer ${TOKEN:-abc}" } },
    };
    const config = await loadProjectConfig({ root: projectWithMcp({ mcpServers: servers }).root });
    expect(config.sections.mcp).toMatchObject([
      { name: "files", transport: "stdio", command: "npx", args: servers.files.args, env: { DEBUG: "1" } },
      { name: "remote", transport: "sse", url: "https://example.com/sse", headers: { Authorization: "Bearer abc" } },
    ]);
  });

  it("accepts VS Code's servers and inputs", async () => {
    const config = await loadProjectConfig({
      root: projectWithMcp({ inputs: [{ id: "token", type: "promptString" }], servers: { git: { command: "uvx", args: ["mcp-server-git"] } } }).root,
    });
    expect(config.sections.mcp).toMatchObject([{ name: "git", transport: "stdio", command: "uvx", args: ["mcp-server-git"] }]);
  });

  it("accepts $schema and an empty mcpServers", async () => {
    const config = await loadProjectConfig({ root: projectWithMcp({ $schema: "https://example.com/mcp.schema.json", mcpServers: {} }).root });
    expect(config.sections.mcp).toEqual([]);
  });

  it("rejects {} with neither mcpServers nor servers", async () => {
    expect(await configErrorText(projectWithMcp({}))).toMatchInlineSnapshot(`"mcp.json:1:1: Missing required key "mcpServers" (or VS Code's "servers"): expected an object of servers by name"`);
  });

  it("rejects both mcpServers and servers, pointing at servers", async () => {
    expect(await configErrorText(projectWithMcp({ mcpServers: {}, servers: {} }))).toMatchInlineSnapshot(`"mcp.json:3:3 servers: Expected either "mcpServers" or "servers", got both"`);
  });

  it("refuses a file whose servers key is misspelled, and warns with the key it meant", async () => {
    expect(await configErrorText(projectWithMcp({ mcpServer: {} }))).toMatchInlineSnapshot(`"mcp.json:1:1: Missing required key "mcpServers" (or VS Code's "servers"): expected an object of servers by name; "mcpServer" looks like a misspelling of "mcpServers""`);
    const config = await loadProjectConfig({ root: projectWithMcp({ mcpServers: {}, mcpServer: {} }).root });
    expect(config.warnings.map((warning) => warning.message)).toMatchInlineSnapshot(`
      [
        "Ignored: "mcpServer" is not a toolexec key (did you mean "mcpServers"?); toolexec reads mcpServers, servers, inputs, trust, serverDefaults, maxConcurrentStarts",
      ]
    `);
  });

  it("ignores, with a warning, another client's top-level settings in a shared file (Claude Desktop's)", async () => {
    const config = await loadProjectConfig({ root: projectWithMcp({ mcpServers: { files: { command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "."] } }, globalShortcut: "Ctrl+Space" }).root });
    expect(config.sections.mcp.map((server) => server.name)).toEqual(["files"]);
    expect(config.warnings.map((warning) => `${warning.file}:${warning.line}:${warning.column} ${warning.path}`)).toEqual(["mcp.json:12:3 globalShortcut"]);
  });

  it("rejects a server entry that is not an object", async () => {
    expect(await configErrorText(projectWithMcp({ mcpServers: { files: "npx server-filesystem" } }))).toMatchInlineSnapshot(`"mcp.json:3:14 mcpServers.files: Expected an object, got "npx server-filesystem""`);
  });

  it("rejects a server entry that is an array", async () => {
    expect(await configErrorText(projectWithMcp({ servers: { files: ["npx"] } }))).toMatchInlineSnapshot(`"mcp.json:3:14 servers.files: Expected an object, got an array"`);
  });

  it("rejects mcpServers that is an array", async () => {
    expect(await configErrorText(projectWithMcp({ mcpServers: [{ command: "npx" }] }))).toMatchInlineSnapshot(`"mcp.json:2:17 mcpServers: Expected an object, got an array"`);
  });

  it("serves a server keyed __proto__ as an ordinary key (no prototype involved), under a derived name", async () => {
    const config = await loadProjectConfig({ root: projectWithMcp('{ "mcpServers": { "__proto__": { "command": "x" } } }').root });
    expect(config.sections.mcp.map((server) => [server.name, server.configKey])).toEqual([["proto", "__proto__"]]);
  });
});

describe("mcp.json server names", () => {
  it("serves any JSON key as Claude Desktop allows it, under a derived safe name, keeping the key", async () => {
    const mcpServers = { "Brave Search": { command: "x" }, "my server é": { command: "x" }, "": { command: "x" }, a__b: { command: "x" }, ["s".repeat(65)]: { command: "x" }, ".hidden": { command: "x" }, "my.server": { command: "x" } };
    const config = await loadProjectConfig({ root: projectWithMcp({ mcpServers }).root });
    expect(config.sections.mcp.map((server) => [server.name, server.configKey])).toEqual([
      ["brave_search", "Brave Search"],
      ["my_server_e", "my server é"],
      ["server", ""],
      ["a_b", "a__b"],
      ["s".repeat(64), "s".repeat(65)],
      ["hidden", ".hidden"],
      ["my.server", undefined],
    ]);
    expect(config.sections.mcp.every((server) => SERVER_NAME_PATTERN.test(server.name))).toBe(true);
  });

  it("refuses two keys that derive the same name, at the second key, in VS Code's servers too", async () => {
    expect(await configErrorText(projectWithMcp({ servers: { brave_search: { command: "x" }, "Brave Search": { command: "x" } } }))).toMatchInlineSnapshot(`"mcp.json:6:5 servers["Brave Search"]: Server "Brave Search" would be served as "brave_search", the name of server "brave_search" too; rename one of them"`);
  });

  it("accepts names made of the allowed characters as they are", async () => {
    const config = await loadProjectConfig({ root: projectWithMcp({ mcpServers: { "github.v2-beta_1": { command: "x" }, "9lives": { command: "x" } } }).root });
    expect(config.sections.mcp.map((server) => server.name)).toEqual(["github.v2-beta_1", "9lives"]);
    expect(config.sections.mcp.some((server) => server.configKey !== undefined)).toBe(false);
  });
});

describe("mcp.json syntax", () => {
  it("rejects malformed JSON with its line and column", async () => {
    expect(await configErrorText(projectWithMcp('{\n  "mcpServers": {\n    "files": { "command": "npx", }\n  }\n}\n'))).toMatchInlineSnapshot(`"mcp.json:3:32: Invalid JSON: trailing comma before '}' (JSON allows none), remove it"`);
  });

  it("rejects an empty file", async () => {
    expect(await configErrorText(projectWithMcp(""))).toMatchInlineSnapshot(`"mcp.json:1:1: File is empty: expected a JSON object"`);
  });

  it("rejects a top-level array", async () => {
    expect(await configErrorText(projectWithMcp([{ name: "files", command: "npx" }]))).toMatchInlineSnapshot(`"mcp.json:1:1: Expected a JSON object at the top level, got an array"`);
  });

  it("rejects a duplicate server name", async () => {
    expect(await configErrorText(projectWithMcp('{ "mcpServers": {\n  "a": { "command": "x" },\n  "a": { "command": "y" }\n} }'))).toMatchInlineSnapshot(`"mcp.json:3:3 mcpServers.a: Duplicate key "a": JSON keeps only the last one, so remove one of them"`);
  });
});
