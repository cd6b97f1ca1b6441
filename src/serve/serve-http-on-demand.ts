/**
 * `serveHttp` as `toolexec/serve` exports it: the HTTP server (Streamable HTTP, sessions, the
 * management API, the console) loads on the first call, so `toolexec serve` over stdio, which imports
 * the same entry, never pays for it (~60 ms of CPU at start-up: bench/startup.mjs).
 */
import type { Executor } from "../index.js";
import type { HttpServeOptions, HttpServing } from "./serve-http.js";

/**
 * Serve `executor` over Streamable HTTP (see serve-http.ts).
 *
 * @example
 * const serving = await serveHttp(executor, { port: 8931 });
 * console.log(serving.url); // http://127.0.0.1:8931/mcp
 */
export async function serveHttp(executor: Executor, options: HttpServeOptions = {}): Promise<HttpServing> {
  const http = await import("./serve-http.js");
  return http.serveHttp(executor, options);
}
