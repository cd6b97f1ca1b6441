/** `serveHttp`: the SDK's own Client reaches every tool of a served executor over Streamable HTTP. */
import { readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Executor } from "../../src/index.js";
import { serveHttp, type HttpServing } from "../../src/serve.js";
import { LATENESS_MARGIN_MS } from "../helpers/lateness-margin.js";
import { isRunning } from "../helpers/processes.js";
import type { TempProject } from "../helpers/temp-project.js";
import { toolEntry } from "../helpers/temp-project.js";
import { httpClient, servedProject } from "./serve-test-helpers.js";

let project: TempProject;
let executor: Executor;
let serving: HttpServing;
beforeAll(async () => {
  ({ project, executor } = await servedProject());
  serving = await serveHttp(executor);
});
afterAll(async () => {
  await serving?.close();
  await executor?.close();
});

describe("serveHttp: tools", () => {
  it("lists local, upstream, code_execution and request_human_input tools, on 127.0.0.1", async () => {
    expect(serving.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const client = await httpClient(serving.url);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(["echo", "slow", "everything__echo", "code_execution", "request_human_input"]));
    await client.close();
  });

  it("calls a local tool (structuredContent and JSON text), an upstream tool and code mode", async () => {
    const client = await httpClient(serving.url);
    const local = await client.callTool({ name: "echo", arguments: { a: 1 } });
    expect(local).toMatchObject({ structuredContent: { a: 1 }, content: [{ type: "text", text: '{"a":1}' }] });
    expect(local.isError).toBeFalsy();
    const upstream = await client.callTool({ name: "everything__echo", arguments: { message: "hi" } });
    expect(upstream.content).toEqual([{ type: "text", text: "Echo: hi" }]);
    const code = await client.callTool({ name: "code_execution", arguments: { code: "const r = await tools.local.echo({ n: 2 }); r.n * 21" } });
    expect(code).toMatchObject({ structuredContent: { ok: true, value: 42 } });
    await client.close();
  });

  it("maps failures to isError results with CODE: message and the code in _meta", async () => {
    const client = await httpClient(serving.url);
    const missing = await client.callTool({ name: "ech", arguments: {} });
    expect(missing).toMatchObject({ isError: true, _meta: { "toolexec/errorCode": "TOOL_NOT_FOUND" } });
    expect((missing.content as Array<{ text: string }>)[0]!.text).toMatchInlineSnapshot(`"TOOL_NOT_FOUND: No tool named "ech"; did you mean "echo"?"`);
    const invalid = await client.callTool({ name: "slow", arguments: {} });
    expect(invalid).toMatchObject({ isError: true, _meta: { "toolexec/errorCode": "INVALID_INPUT" } });
    const failedCode = await client.callTool({ name: "code_execution", arguments: { code: "null.x" } });
    expect(failedCode).toMatchObject({ isError: true, _meta: { "toolexec/errorCode": "RUNTIME_ERROR" } });
    await client.close();
  });

  it("forwards progress to a client that asked for it", async () => {
    const client = await httpClient(serving.url);
    const progress: number[] = [];
    const result = await client.callTool({ name: "everything__trigger-long-running-operation", arguments: { duration: 0.3, steps: 3 } }, undefined, {
      onprogress: ({ progress: value }) => progress.push(value),
    });
    expect(result.isError).toBeFalsy();
    expect(progress).toEqual([1, 2, 3]);
    await client.close();
  });

  it("cancels a call when the client aborts: the script's process is killed", async () => {
    const client = await httpClient(serving.url);
    const pidFile = project.path("slow.pid");
    const controller = new AbortController();
    const call = client.callTool({ name: "slow", arguments: { pidFile } }, undefined, { signal: controller.signal }).catch((error: Error) => error);
    const pid = await vi.waitFor(
      () => {
        const text = readFileSync(pidFile, "utf8");
        if (!text) throw new Error("slow.py has not written its pid yet");
        return Number(text);
      },
      { timeout: 10_000, interval: 10 },
    );
    expect(isRunning(pid)).toBe(true);
    controller.abort();
    await call;
    // The processes would sleep 60 s; a killed one still needs the CPU to exit, which a busy machine delays.
    await vi.waitFor(() => expect(isRunning(pid)).toBe(false), { timeout: LATENESS_MARGIN_MS, interval: 5 });
    await client.close();
  });

  it("tells clients when the tool list changes (tools.json edited)", async () => {
    const client = await httpClient(serving.url);
    const changed = new Promise<void>((resolve) => client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()));
    project.write("tools.json", {
      tools: [toolEntry("echo", "python", "echo.py", { parallel: true }), toolEntry("echo_again", "python", "echo.py")],
      codeExecution: { enabled: true, poolSize: 1 },
    });
    await changed;
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("echo_again");
    await client.close();
  });

  it("asks an elicitation-capable client's person for request_human_input (also from code mode; accept, decline, cancel), else the host", async () => {
    const asking = new Client({ name: "asking", version: "2.0.0" }, { capabilities: { elicitation: {} } });
    const questions: Array<{ message: string; enum: unknown }> = [];
    let reply: "accept" | "decline" | "cancel" = "accept";
    asking.setRequestHandler(ElicitRequestSchema, async (request) => {
      const params = request.params as unknown as { message: string; requestedSchema: { properties: { answer: { enum?: string[] } } } };
      questions.push({ message: params.message, enum: params.requestedSchema.properties.answer.enum });
      return reply === "accept" ? { action: "accept", content: { answer: "blue" } } : { action: reply };
    });
    await asking.connect(new StreamableHTTPClientTransport(new URL(serving.url)));
    const direct = await asking.callTool({ name: "request_human_input", arguments: { question: "Which color?", options: ["red", "blue"] } });
    expect(direct.content).toEqual([{ type: "text", text: "blue" }]);
    const fromCode = await asking.callTool({ name: "code_execution", arguments: { code: "call_tool('human', 'request_human_input', { question: 'And now?' }).value" } });
    expect(fromCode).toMatchObject({ structuredContent: { ok: true, value: "blue" } });
    expect(questions).toEqual([{ message: "Which color?", enum: ["red", "blue"] }, { message: "And now?", enum: undefined }]);
    reply = "decline";
    expect(await asking.callTool({ name: "request_human_input", arguments: { question: "Still there?" } })).toMatchObject({ isError: true, _meta: { "toolexec/errorCode": "HUMAN_INPUT_UNAVAILABLE" } });
    reply = "cancel";
    expect(await asking.callTool({ name: "request_human_input", arguments: { question: "Hello?" } })).toMatchObject({
      isError: true,
      content: [{ type: "text", text: "CANCELLED: The person dismissed the question" }],
      _meta: { "toolexec/errorCode": "CANCELLED" },
    });
    await asking.close();

    const plain = await httpClient(serving.url);
    expect((await plain.callTool({ name: "request_human_input", arguments: { question: "Host?" } })).content).toEqual([{ type: "text", text: "yes" }]);
    await plain.close();
  });

  it("serves 5 clients × 20 concurrent calls, losing none", async () => {
    const clients = await Promise.all(Array.from({ length: 5 }, () => httpClient(serving.url)));
    const results = await Promise.all(
      clients.flatMap((client, c) => Array.from({ length: 20 }, (_, n) => client.callTool({ name: "everything__echo", arguments: { message: `${c}-${n}` } }))),
    );
    expect(results.map((result) => (result.content as Array<{ text: string }>)[0]!.text).sort()).toEqual(
      clients.flatMap((_, c) => Array.from({ length: 20 }, (__, n) => `Echo: ${c}-${n}`)).sort(),
    );
    await Promise.all(clients.map((client) => client.close()));
  });
});
