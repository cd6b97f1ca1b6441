/** Both config files together: every problem of both in one ConfigError, with the right code. */
import { describe, expect, it } from "vitest";
import { ConfigError, formatConfigIssue, isConfigError, isToolexecError, ToolexecError } from "../../src/index.js";
import { loadProjectConfig } from "../../src/config.js";
import { createTempProject, toolEntry } from "../helpers/temp-project.js";
import { configErrorText, loadConfigError } from "./config-test-helpers.js";

describe("loadProjectConfig", () => {
  it("loads a valid project", async () => {
    const project = createTempProject({ tools: { tools: [toolEntry("echo", "shell", "echo.sh")] }, mcp: { mcpServers: { a: { command: "x" } } } });
    project.useFixtures("echo.sh");
    const config = await loadProjectConfig({ root: project.root });
    expect(config.root).toBe(project.root);
    expect(config.files).toEqual([project.path("tools.json"), project.path("mcp.json")]);
    expect(config.entries.script.map((tool) => tool.name)).toEqual(["echo"]);
    expect(config.sections.mcp.map((server) => server.name)).toEqual(["a"]);
    expect(config.warnings).toEqual([]);
  });

  it("runs with neither file when both are turned off", async () => {
    const project = createTempProject({ mcp: false });
    const config = await loadProjectConfig({ root: project.root, toolsConfig: false, mcpConfig: false });
    expect(config).toMatchObject({ root: project.root, files: [], entries: { script: [], python: [] }, warnings: [] });
    // Each plugin's section resolves with nothing written: its defaults.
    expect(config.sections).toMatchObject({ mcp: [], python: { modules: [] }, code: { enabled: false }, search: { offerTool: false, searchFirst: false } });
    expect(config.sections["web-search"]).toBeUndefined();
  });

  it("reports problems of both files together, tools.json first", async () => {
    const project = createTempProject({ tools: { tools: [toolEntry("echo", "shell", "echo.sh", { runtime: "ruby" })] }, mcp: { servers: { a: 1 } } });
    const error = await loadConfigError(project);
    expect(error.code).toBe("CONFIG_INVALID");
    expect(error.issues.map((issue) => issue.file)).toEqual(["tools.json", "mcp.json"]);
    expect(error.message).toMatchInlineSnapshot(`
      "2 problems in tools.json and mcp.json:
        tools.json:6:18 tools[0].runtime: Expected one of "python", "shell", "node", got "ruby"
        mcp.json:3:10 servers.a: Expected an object, got 1"
    `);
  });

  it("reports a syntax error in one file together with schema problems in the other", async () => {
    const project = createTempProject({ tools: "{ 'tools': [] }", mcp: {} });
    expect(await configErrorText(project)).toMatchInlineSnapshot(`
      "2 problems in tools.json and mcp.json:
        tools.json:1:3: Invalid JSON: expected a property name in double quotes, got a single quote (JSON strings use double quotes)
        mcp.json:1:1: Missing required key "mcpServers" (or VS Code's "servers"): expected an object of servers by name"
    `);
  });

  it("uses CONFIG_MISSING when both files are missing, listing both", async () => {
    const project = createTempProject({ mcp: false });
    const error = await loadConfigError(project);
    expect(error.code).toBe("CONFIG_MISSING");
    expect(await configErrorText(project)).toMatchInlineSnapshot(`
      "2 problems in tools.json and mcp.json:
        tools.json: File not found at <root>/tools.json; run \`npx toolexec init\` for a starter project, create it with { "tools": [] } (see docs/config.md), or pass \`toolsConfig: false\` to run without local tools
        mcp.json: File not found at <root>/mcp.json; create it with { "mcpServers": {} } or pass \`mcpConfig: false\` to run without MCP servers"
    `);
  });

  it("uses CONFIG_MISSING when one file is missing and the other is invalid, listing both", async () => {
    const project = createTempProject({ tools: "[]", mcp: false });
    const error = await loadConfigError(project);
    expect(error.code).toBe("CONFIG_MISSING");
    expect(error.issues.map((issue) => issue.file)).toEqual(["tools.json", "mcp.json"]);
  });

  it("uses CONFIG_INVALID when nothing is missing", async () => {
    const error = await loadConfigError(createTempProject({ tools: "[]" }));
    expect(error.code).toBe("CONFIG_INVALID");
  });

  it("reports the warnings of a valid config, not of an invalid one", async () => {
    const project = createTempProject({ tools: { tools: [toolEntry("a", "shell", "missing.sh"), toolEntry("b", "shell", "../x.sh")] } });
    const error = await loadConfigError(project);
    expect(error.issues.map((issue) => issue.path)).toEqual(["tools[1].script"]);
  });

  it("names files relative to the root, even when given with ./", async () => {
    const project = createTempProject({ mcp: false });
    project.write("conf/tools.json", "[]");
    const error = await loadConfigError(project, { toolsConfig: "./conf/tools.json", mcpConfig: false });
    expect(error.issues[0]?.file).toBe("conf/tools.json");
  });

  it("uses process.cwd() when no root is given", async () => {
    const project = createTempProject({ tools: { tools: [] } });
    const previous = process.cwd();
    process.chdir(project.root);
    try {
      const config = await loadProjectConfig();
      expect(config.root).toBe(process.cwd());
    } finally {
      process.chdir(previous);
    }
  });
});

describe("ConfigError", () => {
  it("is recognised by isConfigError and isToolexecError, across realms by its marker", async () => {
    const error = await loadConfigError(createTempProject({ tools: "[]" }));
    expect(error).toBeInstanceOf(ConfigError);
    expect(isConfigError(error)).toBe(true);
    expect(isToolexecError(error)).toBe(true);
    const foreign = Object.assign(Object.create(null), { code: "CONFIG_INVALID" }) as object;
    Object.defineProperty(foreign, Symbol.for("toolexec.error"), { value: true });
    expect(isConfigError(foreign)).toBe(true);
  });

  it("is not confused with other errors", () => {
    expect(isConfigError(new ToolexecError("INVALID_OPTIONS", "x"))).toBe(false);
    expect(isConfigError(Object.assign(new Error("x"), { code: "CONFIG_INVALID" }))).toBe(false);
    expect(isConfigError(undefined)).toBe(false);
    expect(isToolexecError(new Error("x"))).toBe(false);
  });

  it("keeps its issues in details and in issues", () => {
    const issues = [{ file: "tools.json", path: "tools", line: 2, column: 3, message: "Expected an array, got 1" }];
    const error = new ConfigError("CONFIG_INVALID", issues, { cause: "why" });
    expect(error.details).toEqual({ issues });
    expect(error.issues).toEqual(issues);
    expect(error.cause).toBe("why");
    expect(error.message).toMatchInlineSnapshot(`"tools.json:2:3 tools: Expected an array, got 1"`);
  });

  it("formats issues without a location or a path", () => {
    expect(formatConfigIssue({ file: "tools.json", path: "", message: "File not found" })).toMatchInlineSnapshot(`"tools.json: File not found"`);
    expect(formatConfigIssue({ file: "tools.json", path: "tools", message: "Expected an array" })).toMatchInlineSnapshot(`"tools.json tools: Expected an array"`);
    expect(formatConfigIssue({ file: "tools.json", path: "", line: 4, column: 2, message: "Invalid JSON" })).toMatchInlineSnapshot(`"tools.json:4:2: Invalid JSON"`);
    expect(formatConfigIssue({ file: "tools.json", path: "tools", line: 4, message: "x" })).toMatchInlineSnapshot(`"tools.json:4:1 tools: x"`);
  });
});
