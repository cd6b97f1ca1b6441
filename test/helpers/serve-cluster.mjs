/**
 * Real parts for scale tests and bench/serve-scale.mjs: a redis-server and an nginx of Debian's,
 * each on a free 127.0.0.1 port with its own temp folder (never the system services), and
 * `toolexec serve --http --stateless` replicas started from the built executable. Each is ready once it answers
 * (PING, a TCP connect, the URL a replica prints); nothing waits on a sleep.
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { TOOLEXEC_BIN } from "./toolexec-bin.mjs";

const REPOSITORY = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
export const CLI = TOOLEXEC_BIN;
export const FIXTURE_MCP_SERVER = path.join(REPOSITORY, "test", "fixtures", "mcp", "stdio-server.mjs");

/** @returns {Promise<number>} a port free right now on 127.0.0.1 */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = /** @type {net.AddressInfo} */ (server.address());
      server.close(() => resolve(port));
    });
  });
}

/**
 * Send one inline command; the first reply line, or undefined when nothing answers.
 * @param {number} port @param {string} command @returns {Promise<string | undefined>}
 */
function ask(port, command) {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    let reply = "";
    /** @param {string | undefined} value */
    const done = (value) => {
      socket.destroy();
      resolve(value);
    };
    socket.setTimeout(1000, () => done(undefined));
    socket.on("error", () => done(undefined));
    socket.on("connect", () => socket.write(command === "" ? "" : `${command}\r\n`));
    if (command === "") socket.on("connect", () => done("connected"));
    socket.on("data", (chunk) => {
      reply += chunk.toString();
      if (reply.includes("\r\n")) done(reply.split("\r\n")[0]);
    });
  });
}

/** @param {() => Promise<boolean>} check @param {string} what */
async function waitFor(check, what, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** @param {import("node:child_process").ChildProcess | undefined} child */
async function killAndWait(child, signal = "SIGKILL") {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill(/** @type {NodeJS.Signals} */ (signal));
  await exited;
}

/**
 * A redis-server without persistence; `restart()` kills it and starts it on the same port (its data gone).
 * @returns {Promise<{ port: number, url: string, start(): Promise<void>, stop(): Promise<void>, restart(): Promise<void>, close(): Promise<void> }>}
 */
export async function startRedis() {
  const folder = mkdtempSync(path.join(os.tmpdir(), "toolexec-redis-"));
  const port = await freePort();
  /** @type {import("node:child_process").ChildProcess | undefined} */
  let child;
  const start = async () => {
    child = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--dir", folder, "--save", "", "--appendonly", "no", "--protected-mode", "no"], { stdio: "ignore" });
    await waitFor(async () => (await ask(port, "PING")) === "+PONG", `redis-server on port ${port}`);
  };
  const stop = async () => {
    const running = child;
    child = undefined;
    await killAndWait(running);
  };
  await start();
  return {
    port,
    url: `redis://127.0.0.1:${port}/0`,
    start,
    stop,
    async restart() {
      await stop();
      await start();
    },
    async close() {
      await stop();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/**
 * The nginx configuration this project tests (docs/deploy.md shows the same): round robin over the
 * replicas, streaming responses unbuffered, a replica that refuses connections skipped.
 * @param {{ port: number, upstreams: number[], prefix: string }} options
 */
export function nginxConfig({ port, upstreams, prefix }) {
  return `worker_processes 1;
error_log ${prefix}/error.log warn;
pid ${prefix}/nginx.pid;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${prefix}/client_body;
  proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi;
  scgi_temp_path ${prefix}/scgi;
  upstream toolexec {
${upstreams.map((upstream) => `    server 127.0.0.1:${upstream};`).join("\n")}
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://toolexec;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_buffering off;
      proxy_request_buffering off;
      proxy_read_timeout 300s;
      proxy_next_upstream error timeout;
    }
  }
}
`;
}

/**
 * nginx (/usr/sbin/nginx) in the foreground with its own prefix folder and config.
 * @param {number[]} upstreams the replicas' ports
 */
export async function startNginx(upstreams) {
  const prefix = mkdtempSync(path.join(os.tmpdir(), "toolexec-nginx-"));
  const port = await freePort();
  const config = path.join(prefix, "nginx.conf");
  writeFileSync(config, nginxConfig({ port, upstreams, prefix }));
  let stderr = "";
  const child = spawn("/usr/sbin/nginx", ["-p", prefix, "-c", config, "-g", "daemon off;"], { stdio: ["ignore", "ignore", "pipe"] });
  child.stderr?.on("data", (chunk) => (stderr += chunk.toString()));
  const exited = new Promise((resolve) => child.once("exit", resolve));
  await Promise.race([waitFor(async () => (await ask(port, "")) === "connected", `nginx on port ${port}`), exited.then(() => Promise.reject(new Error(`nginx exited: ${stderr}`)))]);
  return {
    port,
    url: `http://127.0.0.1:${port}/mcp`,
    async close() {
      await killAndWait(child, "SIGTERM");
      rmSync(prefix, { recursive: true, force: true });
    },
  };
}

/**
 * A project for the replicas: `count` (a shell tool that appends its `id` to the file `file` and
 * takes `seconds`) and the fixture MCP server over stdio (its `read_slow` awaits `delayMs`).
 * @param {string} root
 */
export function writeClusterProject(root) {
  mkdirSync(path.join(root, "tools"), { recursive: true });
  writeFileSync(path.join(root, "tools", "count.sh"), 'echo "$TOOLEXEC_ARG_ID" >> "$TOOLEXEC_ARG_FILE"\nsleep "${TOOLEXEC_ARG_SECONDS:-0}"\necho "{\\"id\\": \\"$TOOLEXEC_ARG_ID\\"}"\n');
  const count = { name: "count", description: "Append id to file, then wait seconds", runtime: "shell", script: "count.sh", timeoutMs: 60000, inputSchema: { type: "object", properties: { id: { type: "string" }, file: { type: "string" }, seconds: { type: "number" } }, required: ["id", "file"] } };
  writeFileSync(path.join(root, "tools.json"), `${JSON.stringify({ tools: [count] }, null, 2)}\n`);
  writeFileSync(path.join(root, "mcp.json"), `${JSON.stringify({ mcpServers: { fixture: { command: process.execPath, args: [FIXTURE_MCP_SERVER], start: "eager" } } }, null, 2)}\n`);
}

/**
 * `toolexec serve --http --stateless` from dist/, on `port` (default: a free one); resolves once it printed its URL.
 * @param {{ root: string, store?: string, maxConcurrency?: number, apiKey?: string, port?: number }} options
 */
export async function startReplica({ root, store, maxConcurrency, apiKey, port = 0 }) {
  const args = [CLI, "serve", "--http", "--stateless", "--root", root, "--port", String(port)];
  if (store) args.push("--store", store);
  if (maxConcurrency) args.push("--max-concurrency", String(maxConcurrency));
  if (apiKey) args.push("--api-key-env", "TOOLEXEC_TEST_API_KEY");
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, TOOLEXEC_TEST_API_KEY: apiKey ?? "" } });
  let stderr = "";
  child.stderr?.on("data", (chunk) => (stderr += chunk.toString()));
  const url = await new Promise((resolve, reject) => {
    let stdout = "";
    child.stdout?.on("data", (chunk) => {
      stdout += chunk.toString();
      const line = stdout.split("\n").find((candidate) => candidate.startsWith("http://"));
      if (line) resolve(line.trim());
    });
    child.once("exit", (code) => reject(new Error(`toolexec serve exited (${code}) before printing its URL:\n${stderr}`)));
  });
  return {
    url: /** @type {string} */ (url),
    port: Number(new URL(/** @type {string} */ (url)).port),
    pid: /** @type {number} */ (child.pid),
    stderr: () => stderr,
    kill: () => killAndWait(child, "SIGKILL"),
    close: () => killAndWait(child, "SIGTERM"),
  };
}

/**
 * The pid among `pids` that is an ancestor of a process whose command line is exactly `commandLine`
 * (e.g. the replica whose tool runs `sleep 30.1`); undefined when none is.
 * @param {number[]} pids @param {string} commandLine @returns {number | undefined}
 */
export function ancestorRunning(pids, commandLine) {
  const rows = execFileSync("ps", ["-eo", "pid=,ppid=,args="], { encoding: "utf8" })
    .trim()
    .split("\n")
    .map((line) => line.trim().split(/\s+/));
  const parents = new Map(rows.map(([pid, ppid]) => [Number(pid), Number(ppid)]));
  for (const [pid, , ...args] of rows) {
    if (args.join(" ") !== commandLine) continue;
    for (let current = Number(pid); current > 1; current = parents.get(current) ?? 0) if (pids.includes(current)) return current;
  }
  return undefined;
}
