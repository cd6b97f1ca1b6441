/**
 * Serve an executor over stdio, as Claude Desktop, Cursor and Claude Code start MCP servers:
 * nothing but protocol on stdout; the server ends when its input closes. The client's first
 * message picks the era: `initialize` gets the 2025 server (create-mcp-server.ts), a request with
 * the 2026-07-28 envelope gets the modern one (era-2026/).
 */
import type { Readable, Writable } from "node:stream";
import type { Executor } from "../index.js";
import { createMcpServer, PACKAGE_VERSION, type McpServerOptions } from "./create-mcp-server.js";
import { resolveRequestStateKey } from "./era-2026/request-state-key.js";
import { routeStdioByEra } from "./era-2026/stdio-era-switch.js";
import { dispatchRequestsDirectly } from "./served-request-dispatch.js";
import { createServedStdioTransport } from "./served-stdio-transport.js";

export interface StdioServing {
  /** Resolves when the client went away (its input closed) or `close()` was called. */
  closed: Promise<void>;
  close(): Promise<void>;
}

/**
 * @example
 * const serving = await serveStdio(executor);
 * await serving.closed; // the client closed our stdin
 * await executor.close();
 */
export async function serveStdio(executor: Executor, options: McpServerOptions & { stdin?: Readable; stdout?: Writable } = {}): Promise<StdioServing> {
  const { stdin = process.stdin, stdout = process.stdout, ...serverOptions } = options;
  // A bad key is the caller's mistake, told now rather than at the first 2026 request.
  const key = resolveRequestStateKey(serverOptions.requestStateKey);
  let served: Promise<{ close(): Promise<void> }> | undefined;
  let finish!: () => void;
  const closed = new Promise<void>((resolve) => (finish = resolve));
  const stopWaiting = routeStdioByEra(stdin, (era, input) => {
    if (era === "modern") {
      // The SDK v2 packages load with the first 2026 connection; the input waits, paused, meanwhile.
      const options = { name: serverOptions.name ?? "toolexec", version: serverOptions.version ?? PACKAGE_VERSION, key };
      served = import("./era-2026/serve-modern-stdio.js").then(({ serveModernStdio }) => serveModernStdio(executor, options, input, stdout));
      return;
    }
    const legacy = createMcpServer(executor, serverOptions);
    const transport = createServedStdioTransport(input, stdout);
    transport.onclose = () => finish();
    served = Promise.resolve(legacy);
    void legacy.server.connect(transport);
    dispatchRequestsDirectly(legacy, transport);
  });
  // Neither SDK's stdio transport reliably notices the end of its input by itself.
  const onEnd = () => {
    stopWaiting();
    void (served ?? Promise.resolve(undefined)).then((serving) => serving?.close()).finally(finish);
  };
  stdin.once("end", onEnd);
  stdin.once("close", onEnd);
  return {
    closed,
    async close() {
      stdin.off("end", onEnd);
      stdin.off("close", onEnd);
      stopWaiting();
      await (await served)?.close();
      finish();
    },
  };
}
