/** serveHttp's close(): calls under way finish, new requests are refused, and the wait is bounded by closeTimeoutMs. */
import { existsSync } from "node:fs";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import type { Executor } from "../../src/index.js";
import { serveHttp } from "../../src/serve.js";
import type { TempProject } from "../helpers/temp-project.js";
import { httpClient, servedProject } from "./serve-test-helpers.js";

let project: TempProject;
let executor: Executor;
beforeAll(async () => {
  ({ project, executor } = await servedProject({ watch: false }));
});
afterAll(async () => {
  await executor?.close();
});

/** A new request's fate while the server closes: its status, or "refused" when no connection is accepted. */
const statusOf = (url: string) =>
  fetch(url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body: "{}" }).then(
    async (response) => (await response.body?.cancel(), response.status),
    () => "refused" as const,
  );

it("lets a call under way finish, refusing new requests meanwhile", async () => {
  const serving = await serveHttp(executor);
  const client = await httpClient(serving.url);
  let closing: Promise<void> | undefined;
  let statusWhileClosing: Promise<number | "refused"> | undefined;
  // The first progress notification is the signal that the call is running upstream.
  const call = client.callTool({ name: "everything__trigger-long-running-operation", arguments: { duration: 0.6, steps: 3 } }, undefined, {
    timeout: 10_000,
    onprogress: () => {
      if (closing) return;
      closing = serving.close();
      statusWhileClosing = statusOf(serving.url);
    },
  });
  const result = await call;
  expect(closing).toBeDefined();
  expect(result.isError).toBeFalsy();
  expect(result.content).toEqual([expect.objectContaining({ type: "text", text: expect.stringContaining("Long running operation completed") })]);
  expect([503, "refused"]).toContain(await statusWhileClosing);
  await closing;
  expect(await statusOf(serving.url)).toBe("refused");
  await client.close().catch(() => undefined);
});

it("stops waiting for a call that runs past closeTimeoutMs", async () => {
  const serving = await serveHttp(executor, { closeTimeoutMs: 200 });
  const client = await httpClient(serving.url);
  const pidFile = project.path("close-timeout.pid");
  const call = client.callTool({ name: "slow", arguments: { pidFile } }).catch((error: Error) => error);
  await vi.waitFor(() => expect(existsSync(pidFile)).toBe(true), { timeout: 10_000, interval: 10 });
  // The script sleeps 60 s: without the bound close() would wait for it (and this test time out).
  await serving.close();
  expect(await statusOf(serving.url)).toBe("refused");
  await client.close().catch(() => undefined);
  await call;
});
