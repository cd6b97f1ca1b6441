/**
 * `toolexec serve` from an installed package, as Claude Desktop starts it (`npx toolexec serve
 * --root …`), driven by the SDK's own Client over stdio; and `--http`, stopped by SIGTERM.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { execa } from "execa";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { isRunning } from "../helpers/processes.js";
import type { TempProject } from "../helpers/temp-project.js";
import { TOOLEXEC_BIN } from "../helpers/toolexec-bin.mjs";
import { httpClient, servedProject } from "./serve-test-helpers.js";

const REPOSITORY = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
let project: TempProject;
/** A folder where toolexec is installed: node_modules/toolexec and its bin, as npm would lay them out. */
const user = mkdtempSync(path.join(os.tmpdir(), "toolexec-npx-"));
beforeAll(async () => {
  ({ project } = await servedProject({ watch: false }).then(async (served) => (await served.executor.close(), served)));
  mkdirSync(path.join(user, "node_modules", ".bin"), { recursive: true });
  symlinkSync(REPOSITORY, path.join(user, "node_modules", "toolexec"), "dir");
  chmodSync(TOOLEXEC_BIN, 0o755);
  symlinkSync(TOOLEXEC_BIN, path.join(user, "node_modules", ".bin", "toolexec"));
});
afterAll(() => rmSync(user, { recursive: true, force: true }));

async function childrenOf(pid: number): Promise<number[]> {
  const { stdout } = await execa("ps", ["-o", "pid=", "--ppid", String(pid)], { reject: false });
  return stdout.split("\n").map((line) => Number(line.trim())).filter((child) => child > 0);
}

it("serves over stdio through npx, as an MCP client's config starts it, and exits with no child left", async () => {
  const transport = new StdioClientTransport({ command: "npx", args: ["--no-install", "toolexec", "serve", "--root", project.root], cwd: user, stderr: "pipe" });
  const client = new Client({ name: "claude-desktop-like", version: "1.0.0" });
  await client.connect(transport);
  const names = (await client.listTools()).tools.map((tool) => tool.name);
  expect(names).toEqual(expect.arrayContaining(["echo", "everything__echo", "code_execution", "request_human_input"]));
  expect((await client.callTool({ name: "echo", arguments: { from: "npx" } })).structuredContent).toEqual({ from: "npx" });
  expect((await client.callTool({ name: "everything__echo", arguments: { message: "via npx" } })).content).toEqual([{ type: "text", text: "Echo: via npx" }]);
  expect((await client.callTool({ name: "code_execution", arguments: { code: "(await tools.everything.echo({ message: 'in code' }))" } })).structuredContent).toEqual(
    expect.objectContaining({ ok: true, value: "Echo: in code" }),
  );
  const progress: number[] = [];
  await client.callTool({ name: "everything__trigger-long-running-operation", arguments: { duration: 0.3, steps: 3 } }, undefined, { onprogress: ({ progress: value }) => progress.push(value) });
  // The last step's progress and the result leave together, and the client may handle either first.
  expect(progress.slice(0, 2)).toEqual([1, 2]);
  const human = await client.callTool({ name: "request_human_input", arguments: { question: "anyone?" } });
  expect(human).toMatchObject({ isError: true, _meta: { "toolexec/errorCode": "HUMAN_INPUT_UNAVAILABLE" } });

  const npx = transport.pid!;
  const tree = async (pid: number): Promise<number[]> => [pid, ...(await Promise.all((await childrenOf(pid)).map(tree))).flat()];
  const all = await tree(npx);
  expect(all.length).toBeGreaterThan(2);
  await client.close();
  await vi.waitFor(() => expect(all.filter(isRunning)).toEqual([]), { timeout: 10_000, interval: 25 });
});

it("serves over HTTP, prints the URL, and stops cleanly on SIGTERM", async () => {
  const child = execa(process.execPath, [TOOLEXEC_BIN, "serve", "--http", "--root", project.root], { reject: false, stdin: "ignore" });
  const url = await new Promise<string>((resolve) => child.stdout!.once("data", (chunk: Buffer) => resolve(chunk.toString().trim())));
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  const client = await httpClient(url);
  expect((await client.callTool({ name: "everything__echo", arguments: { message: "over http" } })).content).toEqual([{ type: "text", text: "Echo: over http" }]);
  await client.close();
  const upstream = await childrenOf(child.pid!);
  child.kill("SIGTERM");
  const result = await child;
  expect(result.exitCode).toBe(0);
  await vi.waitFor(() => expect(upstream.filter(isRunning)).toEqual([]), { timeout: 5_000, interval: 25 });
});

it("on SIGINT over HTTP, lets the call under way finish before it exits", async () => {
  const child = execa(process.execPath, [TOOLEXEC_BIN, "serve", "--http", "--root", project.root], { reject: false, stdin: "ignore" });
  const url = await new Promise<string>((resolve) => child.stdout!.once("data", (chunk: Buffer) => resolve(chunk.toString().trim())));
  const client = await httpClient(url);
  let signalled = false;
  // The first progress notification is the signal that the call is running upstream.
  const result = await client.callTool({ name: "everything__trigger-long-running-operation", arguments: { duration: 0.6, steps: 3 } }, undefined, {
    onprogress: () => {
      if (!signalled) signalled = child.kill("SIGINT");
    },
  });
  expect(signalled).toBe(true);
  expect(result.isError).toBeFalsy();
  expect(result.content).toEqual([expect.objectContaining({ text: expect.stringContaining("Long running operation completed") })]);
  const exited = await child;
  expect(exited.exitCode).toBe(0);
  expect(exited.stderr).toContain("toolexec serve: stopping (calls under way may finish)");
  await client.close().catch(() => undefined);
});

it("takes the bearer token from the variable --token-env names, and serves without sessions with --stateless", async () => {
  const token = "cli-token-5d1e";
  const child = execa(process.execPath, [TOOLEXEC_BIN, "serve", "--http", "--token-env", "SERVE_TEST_TOKEN", "--stateless", "--root", project.root], {
    reject: false,
    stdin: "ignore",
    env: { SERVE_TEST_TOKEN: token },
  });
  const url = await new Promise<string>((resolve) => child.stdout!.once("data", (chunk: Buffer) => resolve(chunk.toString().trim())));
  const initialize = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } });
  const post = (headers: Record<string, string>) => fetch(url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers }, body: initialize });
  expect((await post({})).status).toBe(401);
  const opened = await post({ authorization: `Bearer ${token}` });
  expect([opened.status, opened.headers.get("mcp-session-id")]).toEqual([200, null]);
  await opened.body?.cancel();
  const client = await httpClient(url, { authorization: `Bearer ${token}` });
  expect((await client.callTool({ name: "echo", arguments: { stateless: true } })).structuredContent).toEqual({ stateless: true });
  await client.close();
  child.kill("SIGTERM");
  expect((await child).exitCode).toBe(0);
});

it("refuses HTTP-only flags without --http, and a token variable that is not set", async () => {
  const cli = TOOLEXEC_BIN;
  const portWithoutHttp = await execa(process.execPath, [cli, "serve", "--port", "8000", "--root", project.root], { reject: false });
  expect(portWithoutHttp.exitCode).toBe(2);
  expect(portWithoutHttp.stderr).toMatchInlineSnapshot(`
    "toolexec serve: --port applies to --http only
    Run \`toolexec serve --help\` for usage and examples."
  `);
  const unsetToken = await execa(process.execPath, [cli, "serve", "--http", "--token-env", "TOOLEXEC_NO_SUCH_TOKEN", "--root", project.root], { reject: false, env: { TOOLEXEC_NO_SUCH_TOKEN: "" } });
  expect(unsetToken.exitCode).toBe(1);
  expect(unsetToken.stderr).toMatchInlineSnapshot(`"toolexec serve: --token-env TOOLEXEC_NO_SUCH_TOKEN: that environment variable is not set (or empty)"`);
});

it("serves the registry management API with the key --api-key-env names: a tool created over HTTP is called at once", async () => {
  const key = "cli-api-key-93b2";
  const child = execa(process.execPath, [TOOLEXEC_BIN, "serve", "--http", "--api-key-env", "SERVE_TEST_API_KEY", "--root", project.root], {
    reject: false,
    stdin: "ignore",
    env: { SERVE_TEST_API_KEY: key },
  });
  const url = await new Promise<string>((resolve) => child.stdout!.once("data", (chunk: Buffer) => resolve(chunk.toString().trim())));
  const api = `${new URL(url).origin}/api/tools`;
  const body = JSON.stringify({ entry: { name: "hello_cli", description: "Say hello", runtime: "shell", script: "hello_cli.sh", inputSchema: { type: "object" } }, script: "printf '{\"hello\": \"cli\"}'\n" });
  expect((await fetch(api, { method: "POST", headers: { "content-type": "application/json" }, body })).status).toBe(401);
  const created = await fetch(api, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${key}` }, body });
  expect(created.status).toBe(201);
  const client = await httpClient(url);
  expect((await client.callTool({ name: "hello_cli", arguments: {} })).structuredContent).toEqual({ hello: "cli" });
  await client.close();
  expect((await fetch(`${api}/hello_cli`, { method: "DELETE", headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
  child.kill("SIGTERM");
  expect((await child).exitCode).toBe(0);
});
