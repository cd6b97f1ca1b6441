/**
 * A tool code mode does not list, called anyway: where the executor knows why it is missing, code
 * gets the host's answer (here SERVICE_UNAVAILABLE for a tool of an MCP server that is down, a real
 * process that exits at once); the run's policy still hides servers it does not allow.
 * Quarantined tools: test/trust/code-mode-trust.test.ts.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExecutor, type Executor } from "../../src/index.js";
import { silentLogger, writeCodeProject, type CodeProject } from "./code-test-helpers.js";

let project: CodeProject;
let executor: Executor;
beforeAll(async () => {
  project = writeCodeProject();
  writeFileSync(path.join(project.root, "mcp.json"), JSON.stringify({ mcpServers: { broken: { command: process.execPath, args: ["-e", "process.exit(1)"] } } }));
  executor = await createExecutor({ root: project.root, watch: false, logDir: false, logger: silentLogger, codeExecution: { enabled: true, poolSize: 1 } });
});
afterAll(async () => {
  await executor?.close();
  project?.remove();
});

describe("a call of a tool of a server that is down", () => {
  it("answers SERVICE_UNAVAILABLE by server and tool and by full name, as for the host", async () => {
    const host = await executor.callTool("broken__anything", {});
    expect(host).toMatchObject({ ok: false, error: { code: "SERVICE_UNAVAILABLE" } });
    const run = await executor.executeCode({ code: `return [call_tool("broken", "anything", {}).error, call_tool("broken__anything", {}).error]` });
    expect(run).toMatchObject({ ok: true, value: [{ code: "SERVICE_UNAVAILABLE" }, { code: "SERVICE_UNAVAILABLE" }] });
    // The host's message (it names the server's state; its retry time moves on between calls).
    if (run.ok) for (const error of run.value as Array<{ message: string }>) expect(error.message).toMatch(/^Cannot call "broken__anything": server "broken"/);
    expect(run.toolCalls).toMatchObject([
      { server: "broken", tool: "anything", ok: false, errorCode: "SERVICE_UNAVAILABLE" },
      { server: "broken", tool: "broken__anything", ok: false, errorCode: "SERVICE_UNAVAILABLE" },
    ]);
  });

  it("stays TOOL_NOT_FOUND on a server the run does not allow", async () => {
    const run = await executor.executeCode({ code: `return [call_tool("broken", "anything", {}).error.code, call_tool("broken__anything", {}).error.code]`, options: { allowed_servers: ["local"] } });
    expect(run).toMatchObject({ ok: true, value: ["TOOL_NOT_FOUND", "TOOL_NOT_FOUND"] });
  });
});
