/**
 * The 2026-07-28 leg of `serveStdio`: the SDK v2 stdio entry, modern only (a 2025 opening was
 * routed to the 2025 server before it got here), over the input the era switch hands on. A
 * tool-list change goes out through the connection's server, and the entry delivers it on the
 * client's `subscriptions/listen` streams.
 */
import type { Readable, Writable } from "node:stream";
import type { Server } from "@modelcontextprotocol/server";
import { serveStdio as serveSdkStdio, StdioServerTransport } from "@modelcontextprotocol/server/stdio";
import type { Executor } from "../../index.js";
import { createModernServer, humanInputCodec } from "./modern-server.js";

/**
 * @example
 * const modern = serveModernStdio(executor, { name, version, key }, input, process.stdout);
 * await modern.close();
 */
export function serveModernStdio(executor: Executor, options: { name: string; version: string; key: string | Uint8Array }, input: Readable, output: Writable): { close(): Promise<void> } {
  const served = { name: options.name, version: options.version, codec: humanInputCodec(options.key) };
  /** The connection's server (and a `server/discover` probe's, until the entry discards it). */
  const servers = new Set<Server>();
  const transport = new StdioServerTransport(input, output);
  const handle = serveSdkStdio(
    () => {
      const server = createModernServer(executor, served);
      servers.add(server);
      server.onclose = () => servers.delete(server);
      return server;
    },
    { legacy: "reject", transport },
  );
  const unsubscribe = executor.on("tools:changed", () => {
    for (const server of servers) void server.sendToolListChanged().catch(() => undefined);
  });
  return {
    async close() {
      unsubscribe();
      await handle.close();
    },
  };
}
