/**
 * The operator routes (`/metrics`, `/readyz`, the console's API) accept the identity's credentials:
 * once keys exist, an API key with the `toolexec:operator` scope is let in, a key without it is 403,
 * no credential is 401; liveness (`/healthz`) stays open where it was open (no static token).
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { createFileStore } from "../../src/core/store/file-store.js";
import { createExecutor, type Executor } from "../../src/index.js";
import { createApiKey, createMetricsRegistry, OPERATOR_SCOPE, serveHttp, type HttpServing } from "../../src/serve.js";
import { createTempProject } from "../helpers/temp-project.js";
import { silentLogger } from "../serve/serve-test-helpers.js";

let executor: Executor;
let serving: HttpServing;
let store: ReturnType<typeof createFileStore>;

beforeAll(async () => {
  const project = createTempProject();
  project.write("tools.json", { tools: [] });
  executor = await createExecutor({ root: project.root, logDir: false, logger: silentLogger, watch: false, mcpConfig: false });
  store = createFileStore(project.root);
  serving = await serveHttp(executor, { keys: store, metrics: createMetricsRegistry(), console: {} });
}, 60_000);
afterAll(async () => {
  await serving?.close();
  await store?.close();
  await executor?.close();
});

const ROUTES = ["/metrics", "/readyz", "/console/api/servers"];

async function statuses(key?: string): Promise<Record<string, number>> {
  const origin = new URL(serving.url).origin;
  const answers: Record<string, number> = {};
  for (const route of [...ROUTES, "/healthz"]) {
    const response = await fetch(origin + route, { headers: key === undefined ? {} : { authorization: `Bearer ${key}` } });
    await response.text();
    answers[route] = response.status;
  }
  return answers;
}

it("lets an operator-scoped key in, refuses a key without the scope (403) and no credential (401), and keeps liveness open", async () => {
  expect(await statuses()).toEqual({ "/metrics": 200, "/readyz": 200, "/console/api/servers": 200, "/healthz": 200 });

  const reader = (await createApiKey(store, { name: "reader", tier: "read" })).key;
  const operator = (await createApiKey(store, { name: "operator", scopes: [OPERATOR_SCOPE] })).key;
  expect(await statuses()).toEqual({ "/metrics": 401, "/readyz": 401, "/console/api/servers": 401, "/healthz": 200 });
  expect(await statuses(reader)).toEqual({ "/metrics": 403, "/readyz": 403, "/console/api/servers": 403, "/healthz": 200 });
  expect(await statuses(operator)).toEqual({ "/metrics": 200, "/readyz": 200, "/console/api/servers": 200, "/healthz": 200 });
  expect(await statuses("txk_0000000000000000_" + "x".repeat(43))).toMatchObject({ "/metrics": 401 });
}, 60_000);
