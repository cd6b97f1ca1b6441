/** Every served call is logged like any other, with the client's name, version and session id. */
import path from "node:path";
import { expect, it } from "vitest";
import { serveHttp } from "../../src/serve.js";
import { readLogRecords } from "../log/log-test-helpers.js";
import { httpClient, servedProject } from "./serve-test-helpers.js";

it("logs a served call with its caller", async () => {
  const { project, executor } = await servedProject({ watch: false, mcpConfig: false, logDir: ".toolexec/logs" });
  const serving = await serveHttp(executor);
  const client = await httpClient(serving.url);
  const result = await client.callTool({ name: "echo", arguments: { logged: true } });
  expect(result.isError).toBeFalsy();
  await client.close();
  await serving.close();
  await executor.close();
  const line = readLogRecords(path.join(project.root, ".toolexec/logs")).find((record) => record.tool === "echo")!;
  expect(line).toMatchObject({ ok: true, arguments: { logged: true }, caller: { name: "serve-test", version: "1.0.0", session: expect.stringMatching(/^[0-9a-f]{16}$/) } });
});
