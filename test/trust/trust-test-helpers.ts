/**
 * Real upstream servers for the trust tests: the changing-tools fixture over stdio or Streamable
 * HTTP, its tool list read from a file in the test's project, and executors closed after each test.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { createExecutor, type Executor, type ExecutorOptions } from "../../src/index.js";
import { createTempProject, type TempProject } from "../helpers/temp-project.js";
import { REPOSITORY, silentLogger, startProcess, track, type RunningServer } from "../mcp/mcp-test-helpers.js";

export const CHANGING_SERVER = path.join(REPOSITORY, "test", "fixtures", "trust", "changing-tools-server.mjs");
export const TOOLS_FILE = "upstream-tools.json";
export const LOCK_FILE = path.join(".toolexec", "tools.lock.json");

export interface UpstreamTool {
  name: string;
  description: string;
  inputSchema?: object;
}

export const SEARCH: UpstreamTool = { name: "search", description: "Search the documents for a phrase." };
export const FETCH: UpstreamTool = { name: "fetch_page", description: "Fetch one page by its id." };
export const DELETE: UpstreamTool = { name: "delete_page", description: "Delete one page by its id." };

/** A project whose upstream lists `tools`; `entry` adds keys to the server's mcp.json entry (stdio unless `url` is given). */
export function trustProject(tools: UpstreamTool[], entry: Record<string, unknown> = {}, top: Record<string, unknown> = {}): TempProject {
  const project = createTempProject({ tools: { tools: [] }, mcp: false });
  project.write(TOOLS_FILE, tools);
  const server = entry.url ? entry : { command: process.execPath, args: [CHANGING_SERVER, project.path(TOOLS_FILE)], ...entry };
  project.write("mcp.json", { ...top, mcpServers: { docs: server } });
  return project;
}

/** The fixture over Streamable HTTP on 127.0.0.1, listing what `project`'s tools file says; stopped after the test. */
export function startChangingHttp(project: TempProject): Promise<RunningServer> {
  return startProcess([CHANGING_SERVER, project.path(TOOLS_FILE), "--http"], {}, /listening (\d+)/, (port) => `http://127.0.0.1:${port}/mcp`, 0);
}

/** An executor on `project` (no hot reload, no log unless asked), closed after the test. */
export async function openTrusted(project: TempProject, options: ExecutorOptions = {}): Promise<Executor> {
  return track(await createExecutor({ root: project.root, logDir: false, watch: false, logger: silentLogger, ...options }));
}

export function readLock(project: TempProject): { version: number; servers: Record<string, { approved: boolean; tools: Record<string, { fingerprint: string; description: string }> }> } {
  return JSON.parse(readFileSync(project.path(LOCK_FILE), "utf8"));
}

/** The servers' tools listed, without the executor's built-ins (read_result is always listed). */
export const toolNames = async (executor: Executor) => (await executor.listTools()).map((tool) => tool.name).filter((name) => name.includes("__")).sort();
