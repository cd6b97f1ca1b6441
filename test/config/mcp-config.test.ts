/** mcp.json's top level, in the shapes Claude Desktop, Cursor, Claude Code and VS Code write. */
import { describe, expect, it } from "vitest";
import { loadProjectConfig } from "../../src/index.js";
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
    expect(config.entries.mcp).toEqual([]);
    expect(config.files).toEqual([project.path("tools.json")]);
  });

  it("reads a custom file name", async () => {
    const project = projectWithMcp(false);
    project.write(".vscode/mcp.json", { servers: { docs: { type: "http", url: "https://example.com/mcp" } } });
    const config = await loadProjectConfig({ root: project.root, mcpConfig: ".vscode/mcp.json" });
    expect(config.entries.mcp).toMatchObject([{ name: "docs", transport: "http", url: "https://example.com/mcp" }]);
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
    expect(config.entries.mcp).toMatchObject([
      { name: "files", transport: "stdio", command: "npx", args: servers.files.args, env: { DEBUG: "1" } },
      { name: "remote", transport: "sse", url: "https://example.com/sse", headers: { Authorization: "Bearer abc" } },
    ]);
  });

  it("accepts VS Code's servers and inputs", async () => {
    const config = await loadProjectConfig({
      root: projectWithMcp({ inputs: [{ id: "token", type: "promptString" }], servers: { git: { command: "uvx", args: ["mcp-server-git"] } } }).root,
    });
    expect(config.entries.mcp).toMatchObject([{ name: "git", transport: "stdio", command: "uvx", args: ["mcp-server-git"] }]);
  });

  it("accepts $schema and an empty mcpServers", async () => {
    const config = await loadProjectConfig({ root: projectWithMcp({ $schema: "https://example.com/mcp.schema.json", mcpServers: {} }).root });
    expect(config.entries.mcp).toEqual([]);
  });

  it("rejects {} with neither mcpServers nor servers", async () => {
    expect(await configErrorText(projectWithMcp({}))).toMatchInlineSnapshot(`"mcp.json:1:1: Missing required key "mcpServers" (or VS Code's "servers"): expected an object of servers by name"`);
  });

  it("rejects both mcpServers and servers, pointing at servers", async () => {
    expect(await configErrorText(projectWithMcp({ mcpServers: {}, servers: {} }))).toMatchInlineSnapshot(`"mcp.json:3:3 servers: Expected either "mcpServers" or "servers", got both"`);
  });

  it("rejects an unknown top-level key with a hint", async () => {
    expect(await configErrorText(projectWithMcp({ mcpServer: {} }))).toMatchInlineSnapshot(`"mcp.json:2:3 mcpServer: Unknown key "mcpServer" (did you mean "mcpServers"?); expected one of: $schema, mcpServers, servers, inputs"`);
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

  it("keeps a server named __proto__ as an ordinary entry", async () => {
    const config = await loadProjectConfig({ root: projectWithMcp('{ "mcpServers": { "__proto__": { "command": "x" } } }').root });
    expect(config.entries.mcp).toMatchObject([{ name: "__proto__", transport: "stdio", command: "x" }]);
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
