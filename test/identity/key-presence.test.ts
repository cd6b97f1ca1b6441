/**
 * "Is there any API key?" is asked on every request without a credential: it is answered from what
 * the store last said, not a listing per request, and a key created or revoked through the store
 * (its announcement) changes the answer for the very next request.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { createFileStore } from "../../src/core/store/file-store.js";
import { createExecutor, type Executor } from "../../src/index.js";
import { createApiKey, revokeApiKey, serveHttp, type HttpServing } from "../../src/serve.js";
import { createTempProject } from "../helpers/temp-project.js";
import { silentLogger } from "../serve/serve-test-helpers.js";

let executor: Executor;
let serving: HttpServing;
let store: ReturnType<typeof createFileStore>;
let listings = 0;

beforeAll(async () => {
  const project = createTempProject();
  project.write("tools.json", { tools: [] });
  executor = await createExecutor({ root: project.root, logDir: false, logger: silentLogger, watch: false });
  store = createFileStore(project.root);
  const counted = {
    get: (key: string) => store.get(key),
    set: (key: string, value: string) => store.set(key, value),
    list: (prefix: string) => {
      listings++;
      return store.list(prefix);
    },
    subscribe: (prefix: string, listener: () => void) => store.subscribe(prefix, listener),
  };
  serving = await serveHttp(executor, { keys: counted });
}, 60_000);
afterAll(async () => {
  await serving?.close();
  await store?.close();
  await executor?.close();
});

async function initialize(): Promise<number> {
  const response = await fetch(serving.url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } }),
  });
  await response.text();
  return response.status;
}

it("serves requests without a credential from the kept answer, and follows key creation and revocation at once", async () => {
  listings = 0;
  for (let request = 0; request < 20; request++) expect(await initialize()).toBe(200);
  // One listing for the first request; the kept answer may be re-checked once if the run is slow.
  expect(listings).toBeLessThanOrEqual(2);

  const { id } = await createApiKey(store, { name: "first", tier: "read" });
  expect(await initialize()).toBe(401);
  await revokeApiKey(store, id);
  expect(await initialize()).toBe(200);
}, 30_000);
