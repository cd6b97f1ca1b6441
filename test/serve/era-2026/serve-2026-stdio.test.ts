/**
 * `toolexec serve` over stdio: an SDK v2 client opening with the 2026-07-28 envelope gets the
 * modern server (request_human_input as inputRequired, tool-list changes on subscriptions/listen);
 * a v1 client opening with `initialize` still gets the 2025 server.
 */
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as LegacyStdioTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { beforeAll, expect, it, vi } from "vitest";
import { createTempProject, toolEntry, type TempProject } from "../../helpers/temp-project.js";
import { CLI, MODERN, SHARED_KEY } from "./serve-process.js";

let project: TempProject;
const tools = [toolEntry("echo", "node", "echo.mjs", { parallel: true })];
const serveCommand = () => ({ command: process.execPath, args: [CLI, "serve", "--root", project.root], env: { ...process.env, TOOLEXEC_REQUEST_STATE_KEY: SHARED_KEY } as Record<string, string>, stderr: "pipe" as const });

beforeAll(() => {
  project = createTempProject({ sharedByFile: true, tools: { tools } });
  project.useFixtures("echo.mjs");
});

it("serves a 2026-07-28 client over stdio: calls, request_human_input as inputRequired, tool-list changes on subscriptions/listen", async () => {
  const client = new Client({ name: "modern-stdio", version: "2.0.0" }, { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: MODERN } } });
  const questions: string[] = [];
  client.setRequestHandler("elicitation/create", async (request) => {
    questions.push(String((request.params as { message?: string }).message));
    return { action: "accept", content: { answer: "green" } };
  });
  await client.connect(new StdioClientTransport(serveCommand()));
  expect(client.getNegotiatedProtocolVersion()).toBe(MODERN);
  expect((await client.callTool({ name: "echo", arguments: { over: "stdio" } })).structuredContent).toEqual({ runtime: "node", arguments: { over: "stdio" } });
  const answered = await client.callTool({ name: "request_human_input", arguments: { question: "Which light?" } });
  expect(answered.content).toEqual([{ type: "text", text: "green" }]);
  expect(questions).toEqual(["Which light?"]);

  const changed = vi.fn();
  client.setNotificationHandler("notifications/tools/list_changed", changed);
  const subscription = await client.listen({ toolsListChanged: true });
  project.write("tools.json", { tools: [...tools, toolEntry("echo_too", "node", "echo.mjs")] });
  await vi.waitFor(() => expect(changed).toHaveBeenCalled(), { timeout: 15_000, interval: 50 });
  expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("echo_too");
  await subscription.close();
  await client.close();
  project.write("tools.json", { tools });
}, 40_000);

it("still serves a 2025-era client over stdio, opening with initialize", async () => {
  const client = new LegacyClient({ name: "legacy-stdio", version: "1.0.0" });
  await client.connect(new LegacyStdioTransport(serveCommand()));
  expect(client.getServerVersion()?.name).toBe("toolexec");
  expect((await client.callTool({ name: "echo", arguments: { era: 2025 } })).structuredContent).toEqual({ runtime: "node", arguments: { era: 2025 } });
  await client.close();
}, 30_000);
