/** serveHttp's token check and body limit, as HTTP and JSON-RPC define them. */
import { afterAll, beforeAll, expect, it } from "vitest";
import { createExecutor, type Executor } from "../../src/index.js";
import { serveHttp, type HttpServing } from "../../src/serve.js";
import { createTempProject } from "../helpers/temp-project.js";

let executor: Executor;
const servings: HttpServing[] = [];
beforeAll(async () => {
  executor = await createExecutor({ root: createTempProject({ tools: { tools: [] }, sharedByFile: true }).root, watch: false });
});
afterAll(async () => {
  await Promise.all(servings.map((serving) => serving.close()));
  await executor?.close();
});

const initialize = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } });
async function post(url: string, headers: Record<string, string>, body = initialize) {
  const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers }, body });
  await response.body?.cancel();
  return response.status;
}

it("accepts the Bearer scheme in any case (RFC 7235: the scheme is case-insensitive), and still only the right token", async () => {
  const token = "correct horse battery staple";
  const serving = await serveHttp(executor, { token });
  servings.push(serving);
  const statuses = await Promise.all(["Bearer", "bearer", "BEARER"].map((scheme) => post(serving.url, { authorization: `${scheme} ${token}` })));
  expect(statuses).toEqual([200, 200, 200]);
  expect(await post(serving.url, { authorization: `bearer ${token}x` })).toBe(401);
  expect(await post(serving.url, { authorization: `Basic ${token}` })).toBe(401);
});

it("answers a body past the limit with 413 and a JSON-RPC error that is not a parse error, naming the limit (as the MCP SDK does)", async () => {
  const serving = await serveHttp(executor, { maxBodyBytes: 1024 });
  servings.push(serving);
  const response = await fetch(serving.url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({ padding: "x".repeat(2048) }),
  });
  expect([response.status, await response.json()]).toEqual([
    413,
    { jsonrpc: "2.0", error: { code: -32000, message: "Payload Too Large: Request body must not exceed 1024 bytes" }, id: null },
  ]);
});
