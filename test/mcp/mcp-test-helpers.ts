/**
 * Real MCP peers for the tests: fixture servers over stdio, Streamable HTTP and legacy SSE, and
 * server-everything, all on 127.0.0.1 and all stopped after each test; executors closed likewise.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach } from "vitest";
import { createExecutor, type Executor, type ExecutorOptions } from "../../src/index.js";
import { createTempProject } from "../helpers/temp-project.js";
import { isRunning } from "../helpers/processes.js";

const here = path.dirname(fileURLToPath(import.meta.url));
export const FIXTURES = path.join(here, "..", "fixtures", "mcp");
export const REPOSITORY = path.join(here, "..", "..");
export const EVERYTHING = path.join(REPOSITORY, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js");
export const silentLogger = { debug() {}, info() {}, warn() {}, error() {} };

const processes = new Set<ChildProcess>();
const executors = new Set<Executor>();
/** Fixture-log folders, removed once the servers writing into them are gone. */
const logFolders = new Set<string>();

afterEach(async () => {
  await Promise.all([...executors].map((executor) => executor.close()));
  executors.clear();
  await Promise.all([...processes].map(stopProcess));
  for (const folder of logFolders) rmSync(folder, { recursive: true, force: true });
  logFolders.clear();
});

function stopProcess(child: ChildProcess): Promise<void> {
  processes.delete(child);
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGKILL");
  });
}

/** A port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** A file the fixture servers append events to (FIXTURE_LOG), and a reader for it. */
export function fixtureLog() {
  const folder = mkdtempSync(path.join(os.tmpdir(), "toolexec-mcp-log-"));
  logFolders.add(folder);
  const file = path.join(folder, "events.jsonl");
  return {
    file,
    events(): Array<{ event: string; pid: number; tool?: string; [key: string]: unknown }> {
      if (!existsSync(file)) return [];
      return readFileSync(file, "utf8").split("\n").filter(Boolean).map((line) => JSON.parse(line));
    },
    runs(tool: string) {
      return this.events().filter((event) => event.event === "run" && event.tool === tool).length;
    },
  };
}

export interface RunningServer {
  port: number;
  url: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/** Start a Node process and resolve once its output matches `ready`. */
export function startProcess(args: string[], env: Record<string, string>, ready: RegExp, url: (port: number) => string, port: number): Promise<RunningServer> {
  const child = spawn(process.execPath, args, { cwd: REPOSITORY, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  processes.add(child);
  return new Promise((resolve, reject) => {
    let output = "";
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = ready.exec(output);
      if (!match) return;
      child.stdout!.off("data", onData);
      child.stderr!.off("data", onData);
      const actual = match[1] ? Number(match[1]) : port;
      resolve({ port: actual, url: url(actual), process: child, stop: () => stopProcess(child) });
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) => reject(new Error(`server exited (${code}) before it was ready:\n${output}`)));
  });
}

/** The fixture server over Streamable HTTP (`http`) or legacy SSE (`sse`) on 127.0.0.1. */
export function startFixtureServer(kind: "http" | "sse", options: { port?: number; log?: string; flags?: string[] } = {}): Promise<RunningServer> {
  const port = options.port ?? 0;
  return startProcess(
    [path.join(FIXTURES, `${kind}-server.mjs`), String(port), ...(options.flags ?? [])],
    options.log ? { FIXTURE_LOG: options.log } : {},
    /listening (\d+)/,
    (actual) => (kind === "http" ? `http://127.0.0.1:${actual}/mcp` : `http://127.0.0.1:${actual}/sse`),
    port,
  );
}

/** server-everything in `sse` or `streamableHttp` mode, bound to 127.0.0.1 by a preload. */
export async function startEverything(mode: "sse" | "streamableHttp"): Promise<RunningServer> {
  const port = await freePort();
  return startProcess(
    ["--import", path.join(FIXTURES, "listen-on-loopback.mjs"), EVERYTHING, mode],
    { PORT: String(port) },
    mode === "sse" ? /Server is running on port/ : /listening on port/,
    (actual) => (mode === "sse" ? `http://127.0.0.1:${actual}/sse` : `http://127.0.0.1:${actual}/mcp`),
    port,
  );
}

/** An mcp.json entry running the stdio fixture, logging to `log`. */
export function stdioFixture(log?: string, extra: Record<string, unknown> = {}) {
  return { command: process.execPath, args: [path.join(FIXTURES, "stdio-server.mjs")], ...(log ? { env: { FIXTURE_LOG: log } } : {}), ...extra };
}

/** An executor for a temp project whose mcp.json is `mcp`; closed after the test. */
export async function openProject(mcp: object | string, options: ExecutorOptions = {}) {
  const project = createTempProject({ tools: { tools: [] }, mcp });
  const executor = await createExecutor({ root: project.root, logDir: false, watch: false, logger: silentLogger, ...options });
  executors.add(executor);
  return { project, executor };
}

/** Close with the test, for executors made some other way. */
export function track(executor: Executor): Executor {
  executors.add(executor);
  return executor;
}

export { nextEvent } from "../helpers/next-event.js";

/** Poll `check` until it returns true, or fail after `withinMs`. */
export async function eventually(check: () => boolean | Promise<boolean>, withinMs = 10_000, what = "condition"): Promise<void> {
  const until = Date.now() + withinMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`${what} not met within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Is a process with this pid alive? */
/** Whether `pid` still runs (a zombie counts as dead). */
export const isAlive = isRunning;

/** TCP servers that accept connections and never answer (a hung MCP server), closed after each test. */
const silent: Array<{ server: Server; sockets: Set<Socket> }> = [];

/** A TCP server on 127.0.0.1 that accepts connections and never answers; resolves to its port. */
export async function startSilentServer(): Promise<number> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => sockets.add(socket));
  silent.push({ server, sockets });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as { port: number }).port;
}
afterEach(async () => {
  for (const { server, sockets } of silent.splice(0)) {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  }
});
