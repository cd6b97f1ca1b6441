/** `mcp.servers`: start only the named mcp.json servers (the CLI starts only the server a call needs). */
import { expect, it } from "vitest";
import { fixtureLog, openProject, stdioFixture } from "./mcp-test-helpers.js";

it("starts only the servers named in mcp.servers; the others are never spawned", async () => {
  const logs = { wanted: fixtureLog(), skipped: fixtureLog() };
  const { executor } = await openProject({ mcpServers: { wanted: stdioFixture(logs.wanted.file), skipped: stdioFixture(logs.skipped.file) } }, { mcp: { servers: ["wanted"] } });
  expect(executor.servers().map((server) => server.name)).toEqual(["wanted"]);
  const tools = (await executor.listTools()).map((tool) => tool.name);
  expect(tools.some((name) => name.startsWith("wanted__"))).toBe(true);
  expect(tools.some((name) => name.startsWith("skipped__"))).toBe(false);
  expect(logs.wanted.events().some((event) => event.event === "started")).toBe(true);
  expect(logs.skipped.events()).toEqual([]);
});
