/**
 * What an upstream server asks or says during a served call reaches the client that made it:
 * elicitation (also from code mode's sub-calls), sampling, log messages at the level the client set;
 * resource subscriptions go to the owning server and its updates come back; a request nobody can
 * attribute goes to the host. The upstream is test/fixtures/serve/conformance-upstream.mjs over stdio.
 */
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
  type ClientCapabilities,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createExecutor, type Executor } from "../../src/index.js";
import type { ElicitationRequest } from "../../src/mcp.js";
import { serveHttp, type HttpServing } from "../../src/serve.js";
import { createTempProject } from "../helpers/temp-project.js";
import { silentLogger } from "./serve-test-helpers.js";

const UPSTREAM = path.join(import.meta.dirname, "..", "fixtures", "serve", "conformance-upstream.mjs");

let executor: Executor;
let serving: HttpServing;
const hostElicitation = vi.fn(async (_request: ElicitationRequest) => ({ action: "decline" as const }));

beforeAll(async () => {
  const project = createTempProject({ sharedByFile: true, tools: { tools: [], codeExecution: { enabled: true, poolSize: 1 } } });
  project.write("mcp.json", { mcpServers: { upstream: { command: process.execPath, args: [UPSTREAM] } } });
  executor = await createExecutor({
    root: project.root,
    logDir: false,
    logger: silentLogger,
    onElicitation: hostElicitation,
    onSampling: () => {
      throw new Error("the host has no model");
    },
  });
  serving = await serveHttp(executor);
});
afterAll(async () => {
  await serving?.close();
  await executor?.close();
});

async function connect(capabilities: ClientCapabilities = {}, setUp: (client: Client) => void = () => {}): Promise<Client> {
  const client = new Client({ name: "upstream-requests-test", version: "1.0.0" }, { capabilities });
  setUp(client);
  await client.connect(new StreamableHTTPClientTransport(new URL(serving.url)));
  return client;
}

const textOf = (result: Awaited<ReturnType<Client["callTool"]>>) => (result.content as Array<{ text: string }>)[0]!.text;

describe("serve: upstream requests during a call", () => {
  it("routes an upstream elicitation to the calling client, schema as written, and its answer back", async () => {
    const asked: unknown[] = [];
    const client = await connect({ elicitation: {} }, (c) =>
      c.setRequestHandler(ElicitRequestSchema, async (request) => {
        asked.push(request.params);
        return { action: "accept", content: { untitledSingle: "option2", titledMulti: ["value1"] } };
      }),
    );
    const result = await client.callTool({ name: "upstream__test_elicitation_sep1330_enums", arguments: {} });
    expect(textOf(result)).toBe('Elicitation completed: action=accept, content={"untitledSingle":"option2","titledMulti":["value1"]}');
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({
      message: "Pick some options",
      requestedSchema: { properties: { legacyEnum: { enumNames: ["Option One", "Option Two", "Option Three"] }, titledMulti: { items: { anyOf: expect.any(Array) } } } },
    });
    expect(hostElicitation).not.toHaveBeenCalled();
    await client.close();
  });

  it("keeps the caller for code mode's sub-calls: the upstream's question reaches the client that ran the code", async () => {
    const client = await connect({ elicitation: {} }, (c) => c.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content: { username: "ada", email: "ada@example.com" } })));
    const result = await client.callTool({ name: "code_execution", arguments: { code: "(await tools.upstream.test_elicitation({ message: 'Who?' }))" } });
    expect(result.structuredContent).toMatchObject({ ok: true, value: 'User response: action=accept, content={"username":"ada","email":"ada@example.com"}' });
    expect(hostElicitation).not.toHaveBeenCalled();
    await client.close();
  });

  it("asks the host when the calling client cannot elicit, and when calls of two clients are under way on the server", async () => {
    const plain = await connect();
    expect(textOf(await plain.callTool({ name: "upstream__test_elicitation", arguments: { message: "Anyone?" } }))).toBe("User response: action=decline, content={}");
    expect(hostElicitation).toHaveBeenCalledTimes(1);
    expect(hostElicitation.mock.calls[0]![0]).toMatchObject({ server: "upstream", message: "Anyone?" });

    // First's question is routed to first (the only caller), which holds it open while second calls.
    let release!: () => void;
    let firstAsked!: () => void;
    const asked = new Promise<void>((resolve) => (firstAsked = resolve));
    const first = await connect({ elicitation: {} }, (c) =>
      c.setRequestHandler(ElicitRequestSchema, async () => {
        firstAsked();
        await new Promise<void>((resolve) => (release = resolve));
        return { action: "accept", content: { username: "first", email: "f@example.com" } };
      }),
    );
    const second = await connect({ elicitation: {} }, (c) => c.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content: { username: "second", email: "s@example.com" } })));
    const firstCall = first.callTool({ name: "upstream__test_elicitation", arguments: { message: "First?" } });
    await asked;
    const secondResult = await second.callTool({ name: "upstream__test_elicitation", arguments: { message: "Second?" } });
    expect(textOf(secondResult)).toBe("User response: action=decline, content={}");
    expect(hostElicitation).toHaveBeenCalledTimes(2);
    release();
    expect(textOf(await firstCall)).toBe('User response: action=accept, content={"username":"first","email":"f@example.com"}');
    await Promise.all([plain.close(), first.close(), second.close()]);
    hostElicitation.mockClear();
  });

  it("routes sampling to a client that declared it, and says why when it did not", async () => {
    const sampling = await connect({ sampling: {} }, (c) =>
      c.setRequestHandler(CreateMessageRequestSchema, async (request) => {
        const message = request.params.messages[0]!.content as { text: string };
        return { role: "assistant", content: { type: "text", text: `echo of ${message.text}` }, model: "test-model" };
      }),
    );
    expect(textOf(await sampling.callTool({ name: "upstream__test_sampling", arguments: { prompt: "hello" } }))).toBe("LLM response: echo of hello");
    const plain = await connect();
    const refused = await plain.callTool({ name: "upstream__test_sampling", arguments: { prompt: "hello" } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain("the host has no model");
    await Promise.all([sampling.close(), plain.close()]);
  });

  it("forwards the upstream's log messages during a call, at or above the level the client set", async () => {
    const logged: string[] = [];
    const client = await connect({}, (c) => c.setNotificationHandler(LoggingMessageNotificationSchema, ({ params }) => void logged.push(`${params.level} ${String(params.data)}`)));
    // Related to the call, the messages travel on its stream ahead of its result.
    await client.callTool({ name: "upstream__test_tool_with_logging", arguments: {} });
    expect(logged).toEqual(["info Tool execution started", "info Tool processing data", "info Tool execution completed"]);
    await client.setLoggingLevel("warning");
    await client.callTool({ name: "upstream__test_tool_with_logging", arguments: {} });
    expect(logged).toHaveLength(3);
    await client.close();
  });
});

it("routes to a host's own caller the same way (the plugin contract's caller, no serving)", async () => {
  const asked: string[] = [];
  const logged: unknown[] = [];
  const caller = {
    name: "host-caller",
    elicit: async (params: Record<string, unknown>) => {
      asked.push(String(params.message));
      return { action: "accept", content: { username: "host", email: "host@example.com" } };
    },
    log: (message: { data: unknown }) => void logged.push(message.data),
  };
  expect(await executor.callTool("upstream__test_elicitation", { message: "Host?" }, { caller })).toMatchObject({
    ok: true,
    value: 'User response: action=accept, content={"username":"host","email":"host@example.com"}',
  });
  expect(asked).toEqual(["Host?"]);
  await executor.callTool("upstream__test_tool_with_logging", {}, { caller });
  expect(logged).toEqual(["Tool execution started", "Tool processing data", "Tool execution completed"]);
  expect(hostElicitation).not.toHaveBeenCalled();
});

it("declares sampling and elicitation upstream only with a host handler to fall back on: without, a server that asks anyway is refused", async () => {
  const project = createTempProject({ tools: { tools: [] } });
  project.write("mcp.json", { mcpServers: { upstream: { command: process.execPath, args: [UPSTREAM] } } });
  const plain = await createExecutor({ root: project.root, logDir: false, logger: silentLogger, watch: false });
  const caller = { createMessage: vi.fn(), elicit: vi.fn() };
  const sampled = await plain.callTool("upstream__test_sampling", { prompt: "hi" }, { caller });
  const elicited = await plain.callTool("upstream__test_elicitation", { message: "hi" }, { caller });
  await plain.close();
  // The SDK's server checks elicitation against the client's capabilities, not sampling: asked anyway, toolexec has no handler.
  expect(sampled).toMatchObject({ ok: false, error: { message: expect.stringContaining("Method not found") } });
  expect(elicited).toMatchObject({ ok: false, error: { message: expect.stringContaining("does not support form elicitation") } });
  expect(caller.createMessage).not.toHaveBeenCalled();
  expect(caller.elicit).not.toHaveBeenCalled();
});

it("tells clients when an upstream server's tool list changes", async () => {
  const client = await connect();
  const changed = new Promise<void>((resolve) => client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()));
  await client.callTool({ name: "upstream__add_tool", arguments: { name: "late_tool" } });
  await changed;
  expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("upstream__late_tool");
  expect(textOf(await client.callTool({ name: "upstream__late_tool", arguments: {} }))).toBe("added");
  await client.close();
});

it("forwards completion/complete to the server owning the prompt or resource template, and answers others with none", async () => {
  const client = await connect();
  const values = async (ref: { type: "ref/prompt"; name: string } | { type: "ref/resource"; uri: string }, name: string, value: string) =>
    (await client.complete({ ref, argument: { name, value } })).completion.values;
  expect(await values({ type: "ref/prompt", name: "upstream__pick_city" }, "city", "par")).toEqual(["paris", "park", "party"]);
  expect(await values({ type: "ref/resource", uri: "test://template/{id}/data" }, "id", "12")).toEqual(["123", "124"]);
  expect(await values({ type: "ref/prompt", name: "no_such_prompt" }, "city", "par")).toEqual([]);
  await client.close();
});

describe("serve: resource subscriptions", () => {
  it("subscribes upstream, forwards the server's updates to the subscribed session, and unsubscribes upstream", async () => {
    const watcher = await connect();
    const other = await connect();
    const uri = "test://watched-resource";
    const updated = new Promise<string>((resolve) => watcher.setNotificationHandler(ResourceUpdatedNotificationSchema, ({ params }) => resolve(params.uri)));
    const strays: string[] = [];
    other.setNotificationHandler(ResourceUpdatedNotificationSchema, ({ params }) => void strays.push(params.uri));
    await watcher.subscribeResource({ uri });
    expect(textOf(await other.callTool({ name: "upstream__touch_resource", arguments: { uri } }))).toBe(`told the subscribers of ${uri}`);
    expect(await updated).toBe(uri);
    await watcher.unsubscribeResource({ uri });
    expect(textOf(await other.callTool({ name: "upstream__touch_resource", arguments: { uri } }))).toBe(`nobody subscribed to ${uri}`);
    expect(strays).toEqual([]);
    await Promise.all([watcher.close(), other.close()]);
  });

  it("refuses a URI no server has", async () => {
    const client = await connect();
    await expect(client.subscribeResource({ uri: "test://nowhere" })).rejects.toThrow("No resource with URI test://nowhere");
    await client.close();
  });

  it("ends a session's upstream subscriptions when the session closes", async () => {
    const uri = "test://watched-resource";
    const watcher = new Client({ name: "leaving", version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(new URL(serving.url));
    await watcher.connect(transport);
    await watcher.subscribeResource({ uri });
    await transport.terminateSession();
    await watcher.close();
    const other = await connect();
    await vi.waitFor(async () => expect(textOf(await other.callTool({ name: "upstream__touch_resource", arguments: { uri } }))).toBe(`nobody subscribed to ${uri}`), { timeout: 5_000, interval: 50 });
    await other.close();
  });
});
