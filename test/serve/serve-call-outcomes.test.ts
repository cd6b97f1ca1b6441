/**
 * How a served call ends, as an MCP client sees it: a failure of each error-code class is an
 * `isError` result with `CODE: message` and the code in `_meta`, through real tools; a cancelled
 * call's whole process tree is killed; a cancelled upstream call is cancelled upstream.
 */
import { rmSync } from "node:fs";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { createExecutor, ERROR_CODES, type Executor } from "../../src/index.js";
import { serveHttp, type HttpServing } from "../../src/serve.js";
import { OUTPUT_META_KEY, toMcpResult } from "../../src/serve/to-mcp-result.js";
import { LATENESS_MARGIN_MS } from "../helpers/lateness-margin.js";
import { isRunning, waitForPid } from "../helpers/processes.js";
import { createTempProject, toolEntry, type TempProject } from "../helpers/temp-project.js";
import { fixtureLog, openProject, stdioFixture } from "../mcp/mcp-test-helpers.js";
import { httpClient, silentLogger } from "./serve-test-helpers.js";

let project: TempProject;
let executor: Executor;
let serving: HttpServing;
beforeAll(async () => {
  project = createTempProject({ sharedByFile: true });
  project.useFixtures("exit-2.py", "huge-output.py", "spawn-grandchild.sh");
  project.write("tools/sleep.sh", "#!/usr/bin/env bash\nsleep 30\n");
  project.write("tools.json", {
    tools: [
      toolEntry("fails", "python", "exit-2.py"),
      toolEntry("floods", "python", "huge-output.py", { maxOutputBytes: 1024 }),
      toolEntry("sleeps", "shell", "sleep.sh", { timeoutMs: 200 }),
      toolEntry("tree", "shell", "spawn-grandchild.sh", { timeoutMs: 30_000 }),
    ],
    codeExecution: { enabled: true, poolSize: 1 },
  });
  // A server that exits at once: its tools are unavailable, and calls to them say why.
  project.write("mcp.json", { mcpServers: { broken: { command: process.execPath, args: ["-e", "process.exit(3)"], retry: { retries: 0 } } } });
  executor = await createExecutor({ root: project.root, logDir: false, logger: silentLogger });
  serving = await serveHttp(executor);
});
afterAll(async () => {
  await serving?.close();
  await executor?.close();
});

it("puts a raw output that is not MCP content in _meta, and passes MCP content blocks through as the content", () => {
  const base = { executionId: "e", tool: "t", durationMs: 1 };
  expect(toMcpResult({ ok: true, value: 2, content: { value: 2, logs: ["x"] }, ...base })).toEqual({ content: [{ type: "text", text: "2" }], _meta: { [OUTPUT_META_KEY]: { value: 2, logs: ["x"] } } });
  const image = [{ type: "image", data: "AAAA", mimeType: "image/png" }];
  expect(toMcpResult({ ok: true, value: { a: 1 }, content: image, ...base })).toEqual({ content: image, structuredContent: { a: 1 } });
  expect(toMcpResult({ ok: true, value: "plain", ...base })).toEqual({ content: [{ type: "text", text: "plain" }] });
});

it("maps every error code the same way: isError, CODE: message, the code in _meta", () => {
  for (const code of ERROR_CODES) {
    expect(toMcpResult({ ok: false, error: { code, message: "why" }, executionId: "e", tool: "t", durationMs: 1 })).toEqual({
      isError: true,
      content: [{ type: "text", text: `${code}: why` }],
      _meta: { "toolexec/errorCode": code },
    });
  }
});

it("answers a failure of each class with its code: tool fault, output limit, timeout, upstream down, code mode", async () => {
  const client = await httpClient(serving.url);
  const codeOf = async (name: string, args: Record<string, unknown> = {}) => {
    const result = await client.callTool({ name, arguments: args });
    expect(result.isError, name).toBe(true);
    const code = (result._meta as Record<string, unknown>)["toolexec/errorCode"];
    expect((result.content as Array<{ text: string }>)[0]!.text.startsWith(`${String(code)}: `)).toBe(true);
    return code;
  };
  expect(await codeOf("fails")).toBe("TOOL_FAILED");
  expect(await codeOf("floods")).toBe("OUTPUT_TOO_LARGE");
  expect(await codeOf("sleeps")).toBe("TIMEOUT");
  expect(await codeOf("broken__anything")).toBe("SERVICE_UNAVAILABLE");
  expect(await codeOf("code_execution", { code: "let x = ;" })).toBe("SYNTAX_ERROR");
  await client.close();
});

it("kills a cancelled call's whole process tree (the script and its grandchild)", async () => {
  const client = await httpClient(serving.url);
  const controller = new AbortController();
  // huge-output.py ("floods", called by the test before) writes a child.pid of its own, of a process long gone.
  // The script writes child.pid after grandchild.pid, so once child.pid is written again both pids are this call's.
  rmSync(project.path("child.pid"), { force: true });
  const call = client.callTool({ name: "tree", arguments: {} }, undefined, { signal: controller.signal }).catch((error: Error) => error);
  const [child, grandchild] = [await waitForPid(project.path("child.pid")), await waitForPid(project.path("grandchild.pid"))];
  expect(isRunning(child) && isRunning(grandchild)).toBe(true);
  controller.abort();
  await call;
  // The processes would sleep 60 s; a killed one still needs the CPU to exit, which a busy machine delays.
  await vi.waitFor(() => expect(isRunning(child) || isRunning(grandchild)).toBe(false), { timeout: LATENESS_MARGIN_MS, interval: 5 });
  await client.close();
});

it("cancels an upstream call upstream: the server hears notifications/cancelled", async () => {
  const log = fixtureLog();
  const { executor: proxy } = await openProject({ mcpServers: { fixture: stdioFixture(log.file) } });
  const served = await serveHttp(proxy);
  const client = await httpClient(served.url);
  const controller = new AbortController();
  const call = client.callTool({ name: "fixture__hang", arguments: {} }, undefined, { signal: controller.signal }).catch((error: Error) => error);
  await vi.waitFor(() => expect(log.runs("hang")).toBe(1), { timeout: 10_000, interval: 10 });
  controller.abort();
  expect(await call).toBeInstanceOf(Error);
  await vi.waitFor(() => expect(log.events().filter((event) => event.event === "cancelled").map((event) => event.tool)).toEqual(["hang"]), { timeout: 5_000, interval: 10 });
  await client.close();
  await served.close();
});
