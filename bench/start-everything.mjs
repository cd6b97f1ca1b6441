// Starts @modelcontextprotocol/server-everything for the MCP benchmarks: over stdio each client spawns
// its own, over SSE or Streamable HTTP one server on 127.0.0.1 is shared by every client.
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";

const repository = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");

/** server-everything's entry point, runnable with `node <path> stdio | sse | streamableHttp`. */
export const EVERYTHING_PATH = path.join(repository, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js");

// Binds server-everything (which listens on every interface) to 127.0.0.1.
const loopback = path.join(repository, "test", "fixtures", "mcp", "listen-on-loopback.mjs");

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/**
 * server-everything in `sse` or `streamableHttp` mode on a free 127.0.0.1 port, once it says it listens.
 * @example
 * const server = await startEverything("streamableHttp");
 * // … connect clients to server.url …
 * await server.stop();
 */
export async function startEverything(mode) {
  const port = await freePort();
  const child = spawn(process.execPath, ["--import", loopback, EVERYTHING_PATH, mode], { env: { ...process.env, PORT: String(port) }, stdio: ["ignore", "pipe", "pipe"] });
  const ready = mode === "sse" ? /Server is running on port/ : /listening on port/;
  await new Promise((resolve, reject) => {
    let output = "";
    const onData = (chunk) => {
      output += chunk;
      if (!ready.test(output)) return;
      // It logs a line per request: from here on its output is drained unread.
      child.stdout.off("data", onData);
      child.stderr.off("data", onData);
      child.off("exit", onExit);
      child.stdout.resume();
      child.stderr.resume();
      resolve();
    };
    const onExit = (code) => reject(new Error(`server-everything ${mode} exited (${code}):\n${output}`));
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.once("exit", onExit);
  });
  const url = `http://127.0.0.1:${port}/${mode === "sse" ? "sse" : "mcp"}`;
  const stop = () => new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : (child.once("exit", resolve), child.kill("SIGKILL"))));
  return { url, stop };
}
