/**
 * Calls per minute are counted in the store: two replicas sharing a real Redis (redis-server on a
 * free port) share one principal's count, so the limit is reached across them and the next call,
 * on either, is RATE_LIMITED with how long to wait.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { openStore } from "../../src/core/store/open-store.js";
import type { Store } from "../../src/core/store/store.js";
import { createExecutor, type Executor } from "../../src/index.js";
import { createApiKey, serveHttp, type HttpServing } from "../../src/serve.js";
import { startRedis } from "../helpers/serve-cluster.mjs";
import { createTempProject, toolEntry } from "../helpers/temp-project.js";
import { httpClient, silentLogger } from "../serve/serve-test-helpers.js";

let redis: Awaited<ReturnType<typeof startRedis>>;
let store: Store;
const executors: Executor[] = [];
const replicas: HttpServing[] = [];
const clients: Client[] = [];

beforeAll(async () => {
  redis = await startRedis();
  store = (await openStore(redis.url, "/nonexistent")).store;
  for (let replica = 0; replica < 2; replica++) {
    const project = createTempProject();
    project.useFixtures("echo.mjs");
    project.write("tools.json", { tools: [toolEntry("peek", "node", "echo.mjs", { parallel: true, annotations: { readOnlyHint: true } })] });
    const executor = await createExecutor({ root: project.root, logDir: false, logger: silentLogger, watch: false, store: redis.url });
    executors.push(executor);
    replicas.push(await serveHttp(executor, { limits: { callsPerMinute: 3 } }));
  }
}, 60_000);
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
  for (const replica of replicas) await replica.close();
  for (const executor of executors) await executor.close();
  await store?.close();
  await redis?.close();
});

const text = (result: Record<string, unknown>) => (result.content as Array<{ text?: string }>).map((part) => part.text ?? "").join("\n");

it("reaches one principal's per-minute limit across two replicas and answers RATE_LIMITED with a retry-after", async () => {
  const { key } = await createApiKey(store, { name: "shared", tier: "read" });
  const [first, second] = await Promise.all(replicas.map((replica) => httpClient(replica.url, { authorization: `Bearer ${key}` })));
  clients.push(first!, second!);
  const call = (client: Client) => client.callTool({ name: "peek", arguments: {} }) as Promise<Record<string, unknown>>;

  for (const client of [first!, second!, first!]) expect((await call(client)).isError).toBeFalsy();
  for (const client of [second!, first!]) {
    const refused = await call(client);
    expect(refused).toMatchObject({ isError: true, _meta: { "toolexec/errorCode": "RATE_LIMITED" } });
    expect(text(refused)).toMatch(/3 calls per minute; retry in \d+ s/);
  }
}, 60_000);
