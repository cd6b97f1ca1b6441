/** `"prefix": false` in mcp.json: an upstream server's tools under their own names (transparent proxying). */
import { createExecutor } from "../../src/index.js";
import { expect, it } from "vitest";
import { childPids } from "../helpers/processes.js";
import { createTempProject } from "../helpers/temp-project.js";
import { fixtureLog, openProject, silentLogger, stdioFixture, track } from "./mcp-test-helpers.js";

it("exposes the tools of a server with prefix false under their own names, next to prefixed servers", async () => {
  const { executor } = await openProject({ mcpServers: { plain: stdioFixture(undefined, { prefix: false }), named: stdioFixture() } });
  const names = (await executor.listTools()).map((tool) => tool.name);
  expect(names).toContain("echo");
  expect(names).toContain("named__echo");
  expect(names).not.toContain("plain__echo");
  expect(await executor.callTool("echo", { text: "hi" })).toMatchObject({ ok: true, value: "hi" });
  expect(executor.servers().find((server) => server.name === "plain")).toMatchObject({ prefix: false, state: "connected", tools: expect.arrayContaining(["echo", "hang"]) });
  expect(executor.servers().find((server) => server.name === "named")).not.toHaveProperty("prefix");
});

it("refuses to start when two unprefixed servers in mcp.json serve one name, naming both, and leaves no server running", async () => {
  const logs = { first: fixtureLog(), second: fixtureLog() };
  const project = createTempProject({ tools: { tools: [] }, mcp: { mcpServers: { first: stdioFixture(logs.first.file, { prefix: false }), second: stdioFixture(logs.second.file, { prefix: false }) } } });
  const started = createExecutor({ root: project.root, logDir: false, watch: false, logger: silentLogger }).then(track);
  await expect(started).rejects.toMatchObject({ code: "TOOL_NAME_CONFLICT", details: { servers: ["first", "second"] } });
  await expect(started).rejects.toThrowErrorMatchingInlineSnapshot(
    `[ToolexecError: Tool name "echo" is served by both server "first" and server "second" in mcp.json; set "prefix": true on one of them]`,
  );
  expect(childPids()).toEqual([]);
});

it("keeps the first server's tool, with a warning naming both, when a clash appears after start", async () => {
  const warnings: string[] = [];
  const logger = { ...silentLogger, warn: (message: string) => warnings.push(message) };
  const logs = { first: fixtureLog(), second: fixtureLog() };
  const { executor } = await openProject({ mcpServers: { first: stdioFixture(logs.first.file, { prefix: false }) } }, { logger });
  // A server added at run time is not mcp.json's: its clash is found once it has connected.
  expect(await executor.addServer("second", stdioFixture(logs.second.file, { prefix: false }), { trusted: true })).toMatchObject({ ok: true });
  expect(executor.servers().map((server) => [server.name, server.tools.includes("echo")])).toEqual([["first", true], ["second", true]]);
  expect(await executor.callTool("count", {})).toMatchObject({ ok: true, value: { runs: 1 } });
  expect([logs.first.runs("count"), logs.second.runs("count")]).toEqual([1, 0]);
  expect(warnings.find((message) => message.includes('"echo"'))).toMatchInlineSnapshot(
    `"MCP tool name "echo" is served by both server "first" and server "second"; keeping server "first"'s (set "prefix": true on one of them)"`,
  );
});

it("refuses to start when an unprefixed server's tool has a local tool's name, naming both", async () => {
  const project = createTempProject({
    tools: { tools: [{ name: "echo", description: "Local echo", runtime: "shell", script: "echo.sh", inputSchema: { type: "object" } }] },
    mcp: { mcpServers: { plain: stdioFixture(undefined, { prefix: false }) } },
  });
  project.useFixtures("echo.sh");
  const started = createExecutor({ root: project.root, logDir: false, watch: false, logger: silentLogger }).then(track);
  await expect(started).rejects.toMatchObject({ code: "TOOL_NAME_CONFLICT" });
  await expect(started).rejects.toThrowErrorMatchingInlineSnapshot(
    `[ToolexecError: Tool name "echo" is served by both plugin "script" and plugin "mcp" (server "plain"); rename one of them]`,
  );
});

it("rejects a prefix that is not a boolean, pointing at the key", async () => {
  await expect(openProject({ mcpServers: { plain: stdioFixture(undefined, { prefix: "gh" }) } })).rejects.toMatchObject({ code: "CONFIG_INVALID" });
});
