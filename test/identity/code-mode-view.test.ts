/**
 * Code mode under a profile and a tier, with real processes (a served executor, code mode's
 * runtime, script tools): code_execution's description and the sandbox's `tools`, `search_tools`
 * and `describe_tool` hold only what the principal may see, under the profile's names and
 * descriptions; a hidden tool named in a call is still refused by the executor.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createFileStore } from "../../src/core/store/file-store.js";
import { createExecutor, type Executor } from "../../src/index.js";
import { createApiKey, serveHttp, type HttpServing } from "../../src/serve.js";
import { createTempProject, toolEntry } from "../helpers/temp-project.js";
import { httpClient, silentLogger } from "../serve/serve-test-helpers.js";

let executor: Executor;
let serving: HttpServing;
let store: ReturnType<typeof createFileStore>;
const clients: Client[] = [];

beforeAll(async () => {
  const project = createTempProject();
  project.useFixtures("echo.mjs", "touch-marker.sh");
  project.write("tools.json", {
    tools: [
      toolEntry("peek", "node", "echo.mjs", { parallel: true, annotations: { readOnlyHint: true }, description: "Peeks at a thing." }),
      toolEntry("vault_read", "node", "echo.mjs", { parallel: true, annotations: { readOnlyHint: true }, description: "Reads the vault." }),
      toolEntry("wipe", "shell", "touch-marker.sh", { description: "Destroys things (leaves a marker)." }),
    ],
    codeExecution: { enabled: true, poolSize: 1 },
    profiles: { readers: { exclude: ["vault_read"], rename: { peek: "look" }, descriptions: { peek: "Looks at things." } } },
  });
  executor = await createExecutor({ root: project.root, logDir: false, logger: silentLogger, watch: false, mcpConfig: false });
  store = createFileStore(project.root);
  serving = await serveHttp(executor, { keys: store });
}, 120_000);
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
  await serving?.close();
  await store?.close();
  await executor?.close();
});

async function clientFor(options: Parameters<typeof createApiKey>[1]): Promise<Client> {
  const { key } = await createApiKey(store, options);
  const client = await httpClient(serving.url, { authorization: `Bearer ${key}` });
  clients.push(client);
  return client;
}

const codeDescription = async (client: Client) => (await client.listTools()).tools.find((tool) => tool.name === "code_execution")!.description!;
const run = async (client: Client, code: string) => {
  const result = await client.callTool({ name: "code_execution", arguments: { code } });
  return result.structuredContent as { ok: boolean; value: unknown };
};

it("shows a profiled read-tier principal code mode with only its tools, renamed and redescribed, and refuses the others by name", async () => {
  const reader = await clientFor({ name: "reader", tier: "read", profile: "readers" });
  const description = await codeDescription(reader);
  expect(description).toContain("look");
  expect(description).toContain("Looks at things.");
  expect(description).not.toMatch(/wipe|vault_read|Destroys things|Reads the vault/);

  const seen = await run(
    reader,
    `({ local: Object.keys(tools.local).sort(), wipe: "wipe" in tools.local, vault: "vault_read" in tools.local,
       found: search_tools("peek").map((match) => match.name),
       others: [...search_tools("wipe destroys"), ...search_tools("vault reads")].map((match) => match.name).filter((name) => ["wipe", "vault_read"].includes(name)),
       looked: (await tools.local.look({ a: 1 })).arguments,
       described: describe_tool("local.look") })`,
  );
  expect(seen.ok).toBe(true);
  expect(seen.value).toMatchObject({ local: ["list_saved_tools", "look", "read_result", "show_saved_tool"], wipe: false, vault: false, found: ["look"], others: [], looked: { a: 1 } });
  expect((seen.value as { described: string }).described).toContain("Looks at things.");
  const unknown = (await run(reader, `describe_tool("local.wipe") + "\\n" + describe_tool("vault_read")`)).value as string;
  expect(unknown).toMatch(/no tool/i);
  expect(unknown).not.toMatch(/Destroys things|Reads the vault/);

  const refused = await run(reader, `({ wipe: call_tool("wipe", {}).error?.code, vault: call_tool("local", "vault_read", {}).error?.code })`);
  expect(refused.value).toEqual({ wipe: "FORBIDDEN", vault: "TOOL_NOT_FOUND" });
}, 60_000);

it("keeps showing an unprofiled destructive-tier principal every tool", async () => {
  const admin = await clientFor({ name: "admin", tier: "destructive" });
  const description = await codeDescription(admin);
  expect(description).toContain("wipe");
  expect(description).toContain("vault_read");
  const seen = await run(admin, `Object.keys(tools.local).sort()`);
  expect(seen.value).toEqual(expect.arrayContaining(["peek", "vault_read", "wipe"]));
}, 60_000);
