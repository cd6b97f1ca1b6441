/**
 * A real redis-server (Debian's /usr/bin/redis-server) for tests: its own temp folder, a free port
 * on 127.0.0.1, no persistence; ready once it answers PING. `restart()` stops it and starts it
 * again on the same port (a Redis restart mid-run).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

export interface TestRedis {
  port: number;
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  restart(): Promise<void>;
  close(): Promise<void>;
}

/** A port free right now on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Send one inline command and resolve with the first reply line, or undefined when nothing answers. */
function ask(port: number, command: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    let reply = "";
    const done = (value: string | undefined) => {
      socket.destroy();
      resolve(value);
    };
    socket.setTimeout(1000, () => done(undefined));
    socket.on("error", () => done(undefined));
    socket.on("connect", () => socket.write(`${command}\r\n`));
    socket.on("data", (chunk) => {
      reply += chunk.toString();
      if (reply.includes("\r\n")) done(reply.split("\r\n")[0]);
    });
  });
}

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function startTestRedis(): Promise<TestRedis> {
  const folder = mkdtempSync(path.join(os.tmpdir(), "toolexec-redis-"));
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--dir", folder, "--save", "", "--appendonly", "no", "--protected-mode", "no"], { stdio: "ignore" });
    await waitFor(async () => (await ask(port, "PING")) === "+PONG", `redis-server on port ${port}`);
  };
  const stop = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once("exit", resolve));
    running.kill("SIGKILL");
    await exited;
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
