/** MCP calls in the execution log: env values and header values of servers never appear in it. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { LOG_FILE_NAME } from "../../src/core/log/execution-log.js";
import { eventually, openProject, startFixtureServer, stdioFixture } from "./mcp-test-helpers.js";

describe("execution log", () => {
  it("redacts servers' env values and header values wherever they appear", async () => {
    const server = await startFixtureServer("http");
    const { project, executor } = await openProject(
      {
        mcpServers: {
          local: stdioFixture(undefined, { env: { FIXTURE_API_KEY: "env-secret-4711" } }),
          remote: { type: "http", url: server.url, headers: { Authorization: "Bearer header-secret-0815" } },
        },
      },
      { logDir: ".toolexec/logs" },
    );
    expect(await executor.callTool("local__echo", { text: "leaking env-secret-4711 here" })).toMatchObject({ ok: true, value: "leaking env-secret-4711 here" });
    expect(await executor.callTool("remote__echo", { text: "and header-secret-0815 there" })).toMatchObject({ ok: true });
    await executor.close();
    const log = project.path(`.toolexec/logs/${LOG_FILE_NAME}`);
    await eventually(() => readFileSync(log, "utf8").split("\n").filter(Boolean).length === 2, 5_000, "two log records");
    const text = readFileSync(log, "utf8");
    expect(text).not.toContain("env-secret-4711");
    expect(text).not.toContain("header-secret-0815");
    expect(text).toContain('"plugin":"mcp"');
    expect(text).toContain("[REDACTED]");
  });
});
