/** The requestState key is checked when serving starts: too short a key is the caller's mistake, said at once. */
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createExecutor, type Executor } from "../../../src/index.js";
import { serveHttp, serveStdio } from "../../../src/serve.js";
import { createTempProject } from "../../helpers/temp-project.js";

let executor: Executor;
beforeAll(async () => {
  const project = createTempProject({ sharedByFile: true, tools: { tools: [] } });
  executor = await createExecutor({ root: project.root, logDir: false, watch: false, logger: { debug() {}, info() {}, warn() {}, error() {} } });
});
afterAll(() => executor.close());

it("refuses a requestStateKey shorter than 32 bytes, over HTTP and stdio", async () => {
  await expect(serveHttp(executor, { requestStateKey: "too short" })).rejects.toThrowErrorMatchingInlineSnapshot(
    `[ToolexecError: Expected requestStateKey to be at least 32 bytes (it keys HMAC-SHA256), got 9; generate one with: openssl rand -base64 32]`,
  );
  await expect(serveStdio(executor, { requestStateKey: new Uint8Array(16), stdin: new PassThrough(), stdout: new PassThrough() })).rejects.toMatchObject({ code: "INVALID_OPTIONS" });
});

it("accepts a 32-byte key", async () => {
  const serving = await serveHttp(executor, { requestStateKey: "k".repeat(32) });
  await serving.close();
});
