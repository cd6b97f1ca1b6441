/**
 * Serve an executor over stdio, as Claude Desktop, Cursor and Claude Code start MCP servers:
 * nothing but protocol on stdout; the server ends when its input closes.
 */
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { Readable, Writable } from "node:stream";
import type { Executor } from "../index.js";
import { createMcpServer, type McpServerOptions } from "./create-mcp-server.js";

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
  const served = createMcpServer(executor, serverOptions);
  const transport = new StdioServerTransport(stdin, stdout);
  let finish!: () => void;
  const closed = new Promise<void>((resolve) => (finish = resolve));
  transport.onclose = () => finish();
  // The SDK's stdio transport does not notice the end of its input by itself.
  const onEnd = () => void served.close().finally(finish);
  stdin.once("end", onEnd);
  stdin.once("close", onEnd);
  await served.server.connect(transport);
  return {
    closed,
    async close() {
      stdin.off("end", onEnd);
      stdin.off("close", onEnd);
      await served.close();
      finish();
    },
  };
}
