/**
 * API keys in a Redis store that goes down (a real redis-server, stopped and started again): a key
 * cannot be checked meanwhile, so it is answered 503 with Retry-After (try again), never 401 (a good
 * key refused) and never admitted unchecked; a request without a credential stays refused (keys
 * existed when the store last answered); once Redis is back (this one keeps nothing on disk, so its
 * keys are gone) keys are checked again: the old one is unknown (401), a new one is admitted.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { openStore } from "../../src/core/store/open-store.js";
import type { Store } from "../../src/core/store/store.js";
import { createExecutor, type Executor } from "../../src/index.js";
import { createApiKey, serveHttp, type HttpServing } from "../../src/serve.js";
import { startRedis } from "../helpers/serve-cluster.mjs";
import { createTempProject, toolEntry } from "../helpers/temp-project.js";
import { silentLogger } from "../serve/serve-test-helpers.js";

let redis: Awaited<ReturnType<typeof startRedis>>;
let store: Store;
let executor: Executor;
let serving: HttpServing;

beforeAll(async () => {
  redis = await startRedis();
  store = (await openStore(redis.url, "/nonexistent")).store;
  const project = createTempProject();
  project.useFixtures("echo.mjs");
  project.write("tools.json", { tools: [toolEntry("peek", "node", "echo.mjs", { annotations: { readOnlyHint: true } })] });
  executor = await createExecutor({ root: project.root, logDir: false, logger: silentLogger, watch: false });
  serving = await serveHttp(executor, { keys: store });
}, 60_000);
afterAll(async () => {
  await serving?.close();
  await executor?.close();
  await store?.close();
  await redis?.close();
});

async function initialize(key?: string) {
  const response = await fetch(serving.url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...(key === undefined ? {} : { authorization: `Bearer ${key}` }) },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } }),
  });
  const body = await response.text();
  return { status: response.status, retryAfter: response.headers.get("retry-after"), body };
}

it("answers 503 with Retry-After for a key while its store is down, keeps refusing no credential, and checks keys again once it is back", async () => {
  const { key } = await createApiKey(store, { name: "reader", tier: "read" });
  expect((await initialize(key)).status).toBe(200);
  expect((await initialize()).status).toBe(401);

  await redis.stop();
  const down = await initialize(key);
  expect(down).toMatchObject({ status: 503, retryAfter: expect.stringMatching(/^\d+$/) });
  expect(down.body).toMatch(/unavailable/i);
  expect((await initialize()).status).toBe(401);

  await redis.start();
  // The store reconnects on its own: the first write it takes is the sign it is back.
  const until = Date.now() + 15_000;
  let fresh: string | undefined;
  while (fresh === undefined && Date.now() < until) {
    fresh = await createApiKey(store, { name: "again", tier: "read" }).then(({ key: created }) => created, () => undefined);
    if (fresh === undefined) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect(fresh).toBeDefined();
  expect((await initialize(key)).status).toBe(401);
  expect((await initialize(fresh)).status).toBe(200);
}, 60_000);
