/**
 * mcp.json server entries: the files Claude Desktop, Cursor, Claude Code and VS Code write load
 * unchanged, and every bad entry is reported with file, line, column, JSON path and what to do.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { loadProjectConfig } from "../../src/config.js";
import { runCli } from "../../src/cli/main.js";
import { configErrorText } from "../config/config-test-helpers.js";
import { createTempProject } from "../helpers/temp-project.js";
import { openProject, stdioFixture } from "./mcp-test-helpers.js";

afterEach(() => {
  vi.unstubAllEnvs();
});

const load = async (mcp: object | string, files: Record<string, string> = {}) => {
  const project = createTempProject({ tools: { tools: [] }, mcp });
  for (const [name, content] of Object.entries(files)) project.write(name, content);
  return { project, config: await loadProjectConfig({ root: project.root }) };
};

describe("the config files clients write load unchanged", () => {
  it("Claude Desktop: stdio servers with env", async () => {
    const { config } = await load({
      mcpServers: {
        filesystem: { command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "/Users/username/Desktop"] },
        github: { command: "docker", args: ["run", "-i", "--rm", "-e", "GITHUB_PERSONAL_ACCESS_TOKEN", "ghcr.io/github/github-mcp-server"], env: { GITHUB_PERSONAL_ACCESS_TOKEN: "ghp_example" } },
      },
    });
    expect(config.sections.mcp).toMatchObject([
      { name: "filesystem", transport: "stdio", command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "/Users/username/Desktop"], env: {}, enabled: true },
      { name: "github", transport: "stdio", command: "docker", env: { GITHUB_PERSONAL_ACCESS_TOKEN: "ghp_example" }, secrets: ["ghp_example"] },
    ]);
    expect(config.sections.mcp[0]).toMatchObject({ retry: { retries: 3, minDelayMs: 250, maxDelayMs: 30_000 }, maxConcurrency: 16, maxResponseBytes: 4_194_304 });
  });

  it("Cursor: a bare url (transport found at connect time), headers and ${env:VAR}", async () => {
    vi.stubEnv("CURSOR_API_KEY", "key-123");
    const { config } = await load({
      mcpServers: {
        "server-name": { command: "npx", args: ["-y", "mcp-server"], env: { API_KEY: "${env:CURSOR_API_KEY}" } },
        remote: { url: "http://localhost:3000/mcp", headers: { API_KEY: "${env:CURSOR_API_KEY}" } },
      },
    });
    expect(config.sections.mcp).toMatchObject([
      { name: "server-name", transport: "stdio", env: { API_KEY: "key-123" } },
      { name: "remote", transport: "auto", url: "http://localhost:3000/mcp", headers: { API_KEY: "key-123" } },
    ]);
  });

  it('Claude Code: "type": "http" / "sse" / "stdio", with ${VAR} and ${VAR:-default}', async () => {
    vi.stubEnv("API_KEY", "secret-key");
    const { config } = await load({
      mcpServers: {
        "api-server": { type: "http", url: "${API_BASE_URL:-https://api.example.com}/mcp", headers: { Authorization: "Bearer ${API_KEY}" } },
        sentry: { type: "sse", url: "https://mcp.sentry.dev/sse" },
        local: { type: "stdio", command: "/path/to/server", args: [], env: {} },
      },
    });
    expect(config.sections.mcp).toMatchObject([
      { name: "api-server", transport: "http", url: "https://api.example.com/mcp", headers: { Authorization: "Bearer secret-key" } },
      { name: "sentry", transport: "sse", url: "https://mcp.sentry.dev/sse" },
      { name: "local", transport: "stdio", command: "/path/to/server" },
    ]);
    // The header, its credential and the variable's value are all kept out of the log.
    expect(config.sections.mcp[0]!.secrets).toEqual(expect.arrayContaining(["Bearer secret-key", "secret-key"]));
  });

  it("VS Code: servers, inputs (read from the environment), envFile and ${workspaceFolder}", async () => {
    vi.stubEnv("PERPLEXITY_KEY", "pplx-1");
    const { project, config } = await load(
      {
        inputs: [{ type: "promptString", id: "perplexity-key", description: "Perplexity API Key", password: true }],
        servers: {
          Perplexity: { type: "stdio", command: "npx", args: ["-y", "server-perplexity-ask"], env: { PERPLEXITY_API_KEY: "${input:perplexity-key}" } },
          github: { type: "http", url: "https://api.githubcopilot.com/mcp/", gallery: true, version: "0.13.0" },
          workspace: { type: "stdio", command: "node", args: ["${workspaceFolder}/server.js"], envFile: "${workspaceFolder}/.env", dev: { watch: "src/**/*.ts" } },
          transports: { transport: "streamable-http", url: "https://example.com/mcp" },
        },
      },
      { ".env": "# local settings\nLEVEL=debug\nQUOTED=\"a b\"\n" },
    );
    expect(config.sections.mcp).toMatchObject([
      { name: "Perplexity", transport: "stdio", env: { PERPLEXITY_API_KEY: "pplx-1" } },
      { name: "github", transport: "http", url: "https://api.githubcopilot.com/mcp/" },
      { name: "workspace", transport: "stdio", args: [`${project.root}/server.js`], env: { LEVEL: "debug", QUOTED: "a b" } },
      { name: "transports", transport: "http" },
    ]);
  });
});

describe("bad entries", () => {
  it("are all reported at once, each with file, line, column, path and a way out", async () => {
    const project = createTempProject({
      tools: { tools: [] },
      mcp: [
        "{",
        '  "mcpServers": {',
        '    "typo": { "comand": "npx" },',
        '    "both": { "command": "npx", "url": "https://example.com/mcp" },',
        '    "neither": { "args": ["x"] },',
        '    "mixed": { "type": "http", "url": "https://example.com/mcp", "env": { "A": "1" } },',
        '    "twice": { "type": "http", "transport": "sse", "url": "https://example.com/mcp" },',
        '    "scheme": { "type": "sse", "url": "ftp://example.com/sse" },',
        '    "relative": { "url": "/mcp" },',
        '    "kind": { "type": "websocket", "url": "wss://example.com" },',
        '    "numbers": { "command": "x", "timeoutMs": "5000", "maxConcurrency": 0 },',
        '    "backoff": { "command": "x", "retry": { "minDelayMs": 500, "maxDelayMs": 100 } },',
        '    "unset": { "type": "http", "url": "https://example.com/mcp", "headers": { "Authorization": "Bearer ${TOOLEXEC_TEST_UNSET_TOKEN}" } },',
        '    "prompt": { "command": "x", "env": { "KEY": "${input:toolexec-test-unset}" } },',
        '    "editor": { "command": "x", "args": ["${config:python.path}"] },',
        '    "dotenv": { "command": "x", "envFile": "missing.env" },',
        '    "flag": { "command": "x", "enabled": "no" }',
        "  }",
        "}",
      ].join("\n"),
    });
    expect(await configErrorText(project)).toMatchInlineSnapshot(`
      "11 problems in mcp.json:
        mcp.json:3:15 mcpServers.typo.comand: Unknown key "comand" (did you mean "command"?); expected one of: type, transport, command, python, args, env, envFile, cwd, url, serverUrl, headers, oauth, auth, enabled, disabled, autoApprove, alwaysAllow, prefix, timeoutMs, installTimeoutMs, start, idleTimeoutMs, retry, results, maxConcurrency, maxResponseBytes, includeTools, excludeTools, disabledTools, trust, quarantined, dev, gallery, version
        mcp.json:4:33 mcpServers.both.url: Expected either "command" (a stdio server) or "url" (an http or sse server), got both
        mcp.json:5:16 mcpServers.neither: Missing required key "command" (for a stdio server) or "url" (for an http or sse server)
        mcp.json:6:66 mcpServers.mixed.env: "env" is for stdio servers; this is an http server (it has "url")
        mcp.json:7:32 mcpServers.twice.transport: Give either "type" or "transport", not both
        mcp.json:10:23 mcpServers.kind.type: Expected one of "stdio", "http", "streamable-http", "streamableHttp", "streamable_http", "sse", got "websocket"
        mcp.json:11:47 mcpServers.numbers.timeoutMs: Expected a number, got "5000" (remove the quotes)
        mcp.json:11:73 mcpServers.numbers.maxConcurrency: Expected a number greater than 0, got 0
        mcp.json:12:59 mcpServers.backoff.retry.minDelayMs: Expected minDelayMs (500) to be at most maxDelayMs (100)
        mcp.json:15:42 mcpServers.editor.args[0]: Unsupported variable \${config:python.path}: use \${VAR}, \${VAR:-default}, \${env:VAR}, \${workspaceFolder} or \${input:id}
        mcp.json:17:42 mcpServers.flag.enabled: Expected a boolean, got "no""
    `);
  });

  it("are reported by `toolexec validate` like tools.json's", async () => {
    const project = createTempProject({ tools: { tools: [] }, mcp: '{ "servers": { "docs": { "type": "http", "url": "https://example.com/mcp", "header": {} } } }' });
    const output = { out: [] as string[], err: [] as string[] };
    const code = await runCli(["validate", "--root", project.root], { out: (text) => output.out.push(text), err: (text) => output.err.push(text) });
    expect(code).toBe(1);
    expect(output.err.join("\n")).toMatchInlineSnapshot(`
      "Invalid config:
        mcp.json:1:76 servers.docs.header: Unknown key "header" (did you mean "headers"?); expected one of: type, transport, command, python, args, env, envFile, cwd, url, serverUrl, headers, oauth, auth, enabled, disabled, autoApprove, alwaysAllow, prefix, timeoutMs, installTimeoutMs, start, idleTimeoutMs, retry, results, maxConcurrency, maxResponseBytes, includeTools, excludeTools, disabledTools, trust, quarantined, dev, gallery, version"
    `);
  });

  it("a disabled server is not resolved (its variables need not exist) and is listed, not started", async () => {
    const { executor } = await openProject({
      mcpServers: {
        on: stdioFixture(),
        off: { type: "http", url: "${TOOLEXEC_TEST_UNSET_URL}", enabled: false },
      },
    });
    expect(executor.servers().map(({ name, state }) => ({ name, state }))).toEqual([
      { name: "on", state: "connected" },
      { name: "off", state: "disabled" },
    ]);
    expect((await executor.listTools()).every((tool) => tool.name.startsWith("on__") || tool.name === "read_result")).toBe(true);
  });
});

