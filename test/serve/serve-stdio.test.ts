/** serveStdio: the SDK's Client starts a serving host as Claude Desktop does, calls through it, and the host exits with its client. */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { beforeAll, expect, it, vi } from "vitest";
import type { Executor } from "../../src/index.js";
import { isRunning } from "../helpers/processes.js";
import type { TempProject } from "../helpers/temp-project.js";
import { servedProject } from "./serve-test-helpers.js";

const HOST = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "fixtures", "serve", "stdio-host.mjs");
let project: TempProject;
let unused: Executor;
beforeAll(async () => {
  // The project only: the served host builds its own executor from it.
  ({ project, executor: unused } = await servedProject({ watch: false, mcpConfig: false }));
  await unused.close();
});

/** Pids of the processes whose parent is `pid`. */
async function childrenOf(pid: number): Promise<number[]> {
  const { stdout } = await execa("ps", ["-o", "pid=", "--ppid", String(pid)], { reject: false });
  return stdout.split("\n").map((line) => Number(line.trim())).filter((child) => child > 0);
}

it("lists and calls over stdio, keeps stdout for protocol only, and exits with no child left when stdin closes", async () => {
  const transport = new StdioClientTransport({ command: process.execPath, args: [HOST, project.root], stderr: "pipe" });
  const client = new Client({ name: "stdio-test", version: "1.0.0" });
  await client.connect(transport);
  const names = (await client.listTools()).tools.map((tool) => tool.name);
  expect(names).toEqual(expect.arrayContaining(["echo", "everything__echo", "code_execution"]));
  expect((await client.callTool({ name: "everything__echo", arguments: { message: "via stdio" } })).content).toEqual([{ type: "text", text: "Echo: via stdio" }]);
  expect((await client.callTool({ name: "echo", arguments: { x: 1 } })).structuredContent).toEqual({ x: 1 });

  const hostPid = transport.pid!;
  const upstream = await childrenOf(hostPid);
  expect(upstream.length).toBeGreaterThan(0);
  await client.close();
  await vi.waitFor(() => expect([hostPid, ...upstream].filter(isRunning)).toEqual([]), { timeout: 10_000, interval: 20 });
});
