/**
 * Python MCP server files for real (mcp.json `"python": { "server", "requirements" }`): one written
 * for the `mcp` SDK 1.x (FastMCP), one for the `fastmcp` package 2.x and one for the `mcp` SDK 2.x
 * (MCPServer), each in its own environment built from PyPI, served together by one executor: their
 * tools, resources and prompts, their `Context` logging and progress reaching a served client, and
 * none seeing another's packages. A failed build and a file that is not a server are clear errors
 * that leave the other servers running.
 */
import { copyFileSync, mkdirSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listPythonEnvironments, loadProjectConfig } from "../../src/config.js";
import { createExecutor, type Executor } from "../../src/index.js";
import { serveHttp, type HttpServing } from "../../src/serve.js";
import { createTempProject, type TempProject } from "../helpers/temp-project.js";
import { runCli } from "../cli/run-cli.js";
import { nextEvent } from "../helpers/next-event.js";
import { httpClient } from "../serve/serve-test-helpers.js";
import { requireUv, useFreshEnvironments } from "./python-environment-helpers.js";

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "fixtures", "python-servers");
const SDK_1 = ["mcp==1.26.0"];
const FASTMCP_2 = ["fastmcp==2.14.7", "mcp==1.30.0"];
const SDK_2 = ["mcp==2.3.0"];

function serversProject(servers: Record<string, unknown>): TempProject {
  const project = createTempProject({ sharedByFile: true, tools: { tools: [] }, mcp: { mcpServers: servers } });
  mkdirSync(project.path("servers"));
  for (const name of readdirSync(FIXTURES)) copyFileSync(path.join(FIXTURES, name), project.path(`servers/${name}`));
  return project;
}

const notes: string[] = [];
const environmentEvents: Array<{ stage: string; source: string; message?: string }> = [];
const warnings: string[] = [];
const logger = { debug() {}, info: (message: string) => void notes.push(message), warn: (message: string) => void warnings.push(message), error: (message: string) => void warnings.push(message) };

let executor: Executor;
let serving: HttpServing;
let root: string;
beforeAll(async () => {
  requireUv();
  const project = serversProject({
    sdk: { python: { server: "servers/sdk_server.py", requirements: SDK_1 } },
    weather: { python: { server: "servers/fastmcp_server.py:weather", requirements: FASTMCP_2 } },
    two: { python: { server: "servers/mcpserver_server.py", requirements: SDK_2 } },
    broken: { python: { server: "servers/sdk_server.py", requirements: ["toolexec-no-such-package==0.0.1"] } },
    plain: { python: { server: "servers/plain_module.py" } },
  });
  root = project.root;
  executor = await createExecutor({ root: project.root, logDir: false, watch: false, logger, mcp: { waitForInstalls: true } });
  executor.on("python:environment", (event) => void environmentEvents.push(event));
  serving = await serveHttp(executor);
}, 600_000);
afterAll(async () => {
  await serving?.close();
  await executor?.close();
});

describe("Python MCP server files in their own environments", () => {
  it("serves the tools of all three; each sees its own packages only", async () => {
    const names = (await executor.listTools()).map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(["sdk__packages", "weather__packages", "two__packages"]));
    expect(await executor.callTool("sdk__packages", {})).toMatchObject({ ok: true, value: { mcp: "1.26.0", fastmcp: false } });
    expect(await executor.callTool("weather__packages", {})).toMatchObject({ ok: true, value: { mcp: "1.30.0", fastmcp: "2.14.7" } });
    expect(await executor.callTool("two__packages", {})).toMatchObject({ ok: true, value: { mcp: "2.3.0" } });
  });

  it("lists and reads their resources, and lists and gets their prompts", async () => {
    const resources = await executor.listResources();
    expect(resources).toEqual(expect.arrayContaining([
      expect.objectContaining({ server: "sdk", uri: "config://sdk/version" }),
      expect.objectContaining({ server: "weather", uri: "weather://stations" }),
      expect.objectContaining({ server: "two", uri: "config://two/version" }),
    ]));
    expect(await executor.readResource("sdk", "config://sdk/version")).toMatchObject({ contents: [{ uri: "config://sdk/version", text: "mcp 1.26.0" }] });
    expect(await executor.readResource("weather", "weather://stations")).toMatchObject({ contents: [{ text: "Oslo, Lima" }] });
    expect(await executor.readResource("two", "config://two/version")).toMatchObject({ contents: [{ text: "mcp 2.3.0" }] });
    const prompts = (await executor.listPrompts()).map((prompt) => `${prompt.server} ${prompt.name}`);
    expect(prompts).toEqual(expect.arrayContaining(["sdk review", "weather forecast", "two summarize"]));
    expect(await executor.getPrompt("weather", "forecast", { city: "Oslo" })).toMatchObject({ ok: true, messages: [{ role: "user", content: { type: "text", text: "What is the weather in Oslo?" } }] });
  });

  it("a served client gets each server's Context logging and progress, and its resources and prompts", async () => {
    const logged: string[] = [];
    const client = await httpClient(serving.url);
    client.setNotificationHandler(LoggingMessageNotificationSchema, ({ params }) => void logged.push(`${params.level} ${typeof params.data === "string" ? params.data : JSON.stringify(params.data)}`));
    for (const server of ["sdk", "weather", "two"]) {
      const progress: number[] = [];
      const result = await client.callTool({ name: `${server}__packages`, arguments: {} }, undefined, { onprogress: ({ progress: value }) => void progress.push(value) });
      expect(result.isError).toBeFalsy();
      // The last report and the result leave together; the client may handle either first.
      expect(progress[0]).toBe(1);
    }
    expect(logged).toEqual(["info sdk: looking at packages", expect.stringContaining("weather: looking at packages"), "info two: looking at packages"]);
    expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(expect.arrayContaining(["sdk__review", "weather__forecast", "two__summarize"]));
    expect(await client.readResource({ uri: "weather://stations" })).toMatchObject({ contents: [{ text: "Oslo, Lima" }] });
    await client.close();
  });

  it("a failed environment build is the server's error, in the installer's words; the others run", async () => {
    const broken = executor.servers().find((server) => server.name === "broken")!;
    expect(broken.state).toBe("failed");
    expect(broken.lastError?.message).toMatch(/^Server "broken" could not be started: Building the Python environment of MCP server "broken" failed: .*toolexec-no-such-package/s);
    expect(executor.servers().find((server) => server.name === "sdk")?.state).toBe("connected");
    expect(environmentEvents).toContainEqual({ stage: "failed", source: 'MCP server "broken"', message: expect.stringContaining("toolexec-no-such-package") });
    expect(await executor.callTool("broken__packages", {})).toMatchObject({ ok: false, error: { code: "SERVICE_UNAVAILABLE", message: expect.stringContaining("toolexec-no-such-package") } });
  });

  it("a file that defines no server object says so", async () => {
    const plain = executor.servers().find((server) => server.name === "plain")!;
    expect(["failed", "retrying"]).toContain(plain.state);
    expect(plain.lastError?.message).toContain('Server "plain" exited with code 2: toolexec: servers/plain_module.py is not an MCP server file: it defines no server object at module level');
  });

  it("`python envs` (library and CLI) lists their environments, built, each used by its server", async () => {
    const environments = await listPythonEnvironments(await loadProjectConfig({ root }));
    const byUser = Object.fromEntries(environments.map((environment) => [environment.usedBy.join(", "), environment]));
    expect(byUser["MCP server sdk"]).toMatchObject({ requirements: "mcp==1.26.0", built: true, sources: ['MCP server "sdk"'] });
    expect(byUser["MCP server weather"]).toMatchObject({ requirements: FASTMCP_2.join(", "), built: true });
    expect(byUser["MCP server two"]).toMatchObject({ requirements: "mcp==2.3.0", built: true });
    expect(byUser["MCP server broken"]).toMatchObject({ built: false });
    expect(byUser["MCP server plain"]).toBeUndefined();
    const listed = JSON.parse((await runCli(["python", "envs", "--root", root, "--json"])).stdout) as { environments: Array<{ usedBy: string[]; built: boolean }> };
    expect(listed.environments.filter((environment) => environment.built).map((environment) => environment.usedBy.join(", ")).sort()).toEqual(["MCP server sdk", "MCP server two", "MCP server weather"]);
  });
});

describe("mcp.json python entries: reload", () => {
  it("builds on first start, telling the log and python:environment events; new requirements in mcp.json restart the server in its new environment", async () => {
    useFreshEnvironments();
    notes.length = 0;
    const project = serversProject({ sdk: { python: { server: "servers/sdk_server.py", requirements: SDK_1 } } });
    const watching = await createExecutor({ root: project.root, logDir: false, watch: true, reloadDebounceMs: 10, logger, mcp: { waitForInstalls: true } });
    const events: Array<{ stage: string; source: string }> = [];
    watching.on("python:environment", (event) => void events.push(event));
    try {
      expect(await watching.callTool("sdk__packages", {})).toMatchObject({ ok: true, value: { mcp: "1.26.0" } });
      const reloaded = nextEvent(watching, "config:reloaded", () => true, 300_000);
      project.write("mcp.json", { mcpServers: { sdk: { python: { server: "servers/sdk_server.py", requirements: ["mcp==1.25.0"] } } } });
      await reloaded;
      expect(await watching.callTool("sdk__packages", {})).toMatchObject({ ok: true, value: { mcp: "1.25.0" } });
      expect(events.map(({ stage, source }) => `${stage} ${source}`)).toEqual(['building MCP server "sdk"', 'built MCP server "sdk"', 'building MCP server "sdk"', 'built MCP server "sdk"']);
      expect(notes.filter((note) => note.startsWith('Building the Python environment of MCP server "sdk" (mcp==1.2'))).toHaveLength(2);
    } finally {
      await watching.close();
    }
  }, 300_000);
});

describe("mcp.json python entries: config errors", () => {
  async function configError(entry: unknown): Promise<string> {
    const project = serversProject({ bad: entry });
    const error = await createExecutor({ root: project.root, logDir: false, watch: false, logger }).then(
      async (started) => {
        await started.close();
        throw new Error("expected a ConfigError");
      },
      (failure: Error) => failure,
    );
    return error.message;
  }

  it("refuses python with command, a file that is not .py, installer options as requirements, and unknown keys", async () => {
    expect(await configError({ command: "python3", python: { server: "servers/sdk_server.py" } })).toContain('Give either "python" (toolexec runs the file in its own environment) or "command", not both');
    expect(await configError({ python: { server: "servers/notes.txt" } })).toContain('Expected a Python file ending in .py, optionally with its server object ("servers/weather.py:app"), got "servers/notes.txt"');
    expect(await configError({ python: { server: "servers/sdk_server.py", requirements: ["-e ."] } })).toContain("installer options belong in a requirements.txt");
    expect(await configError({ python: { server: "servers/sdk_server.py", packages: ["mcp"] } })).toContain('Unknown key "packages"');
    expect(await configError({ type: "http", python: { server: "servers/sdk_server.py" } })).toContain('A Python server runs on stdio, got "type": "http"');
  });

  it("a missing server file leaves that server unavailable, saying which file", async () => {
    const project = serversProject({ gone: { python: { server: "servers/gone.py", requirements: SDK_1 } } });
    const started = await createExecutor({ root: project.root, logDir: false, watch: false, logger });
    expect(started.servers()[0]).toMatchObject({ name: "gone", state: "unavailable" });
    expect(await started.callTool("gone__anything", {})).toMatchObject({ ok: false, error: { message: expect.stringContaining("its file servers/gone.py is missing") } });
    await started.close();
  });
});
