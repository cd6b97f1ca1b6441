/**
 * An MCP server in front of an executor: every registry tool is listed and called through
 * `executor.callTool` (same validation, limits, log and events), progress and cancellation are
 * forwarded, `list_changed` follows the registry, and upstream resources and prompts pass through. A front door:
 * it uses the executor's public surface only.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  ListToolsRequestSchema,
  SetLevelRequestSchema,
  type CallToolResult,
} from "@modelcontextprotocol/sdk/types.js";
import type { CallerInfo, Executor, PersonAnswer } from "../index.js";
import { registerPromptHandlers } from "./serve-prompts.js";
import { registerResourceHandlers } from "./serve-resources.js";
import { toMcpResult, toMcpTool } from "./to-mcp-result.js";

/** Calls one client session may have running at once; more are answered `QUEUE_FULL`. */
export const DEFAULT_MAX_CALLS_PER_SESSION = 32;

export interface McpServerOptions {
  /** The server's name and version in `initialize`. Default `toolexec` and the package version. */
  name?: string;
  version?: string;
  /** Calls this session may have running at once (default 32); more are answered `QUEUE_FULL`. */
  maxConcurrentCalls?: number;
}

export interface ServedMcpServer {
  /** The SDK server, ready to `connect(transport)`. */
  server: Server;
  /** Unsubscribe from the executor and close the server's transport. The executor stays open. */
  close(): Promise<void>;
}

const PACKAGE_VERSION = "0.1.0";

/** Put a question to the client's person with `elicitation/create`: one string field, an enum when there are options. */
async function askClient(server: Server, { question, options, signal }: { question: string; options?: string[]; signal: AbortSignal }): Promise<PersonAnswer> {
  const answer = options ? { type: "string" as const, title: "Answer", enum: options } : { type: "string" as const, title: "Answer" };
  const reply = await server.elicitInput({ message: question, requestedSchema: { type: "object", properties: { answer }, required: ["answer"] } }, { signal });
  if (reply.action !== "accept") return { action: reply.action };
  return { action: "accept", answer: String(reply.content?.answer ?? "") };
}

/**
 * @example
 * import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
 * const { server } = createMcpServer(executor);
 * await server.connect(new StdioServerTransport());
 */
export function createMcpServer(executor: Executor, options: McpServerOptions = {}): ServedMcpServer {
  const maxCalls = options.maxConcurrentCalls ?? DEFAULT_MAX_CALLS_PER_SESSION;
  const server = new Server(
    { name: options.name ?? "toolexec", version: options.version ?? PACKAGE_VERSION },
    { capabilities: { tools: { listChanged: true }, resources: {}, prompts: {}, logging: {}, completions: {} } },
  );
  let running = 0;

  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: (await executor.listTools()).map(toMcpTool) }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    if (running >= maxCalls) {
      return toMcpResult({ ok: false, error: { code: "QUEUE_FULL", message: `This session already has ${maxCalls} calls running; wait for one to finish` }, executionId: "", tool: request.params.name, durationMs: 0 });
    }
    const progressToken = request.params._meta?.progressToken;
    const client = server.getClientVersion();
    const caller: CallerInfo = {
      ...(client === undefined ? {} : { name: client.name, version: client.version }),
      ...(extra.sessionId === undefined ? {} : { sessionId: extra.sessionId }),
      // request_human_input asks this client's person when the client can elicit.
      ...(server.getClientCapabilities()?.elicitation === undefined ? {} : { ask: (question: Parameters<NonNullable<CallerInfo["ask"]>>[0]) => askClient(server, question) }),
    };
    running++;
    try {
      const result = await executor.callTool(request.params.name, request.params.arguments ?? {}, {
        signal: extra.signal,
        caller,
        ...(progressToken === undefined
          ? {}
          : {
              onProgress: (progress) =>
                void extra.sendNotification({ method: "notifications/progress", params: { progressToken, ...progress } }).catch(() => undefined),
            }),
      });
      return toMcpResult(result);
    } finally {
      running--;
    }
  });

  registerResourceHandlers(server, executor);
  registerPromptHandlers(server, executor);
  server.setRequestHandler(SetLevelRequestSchema, async () => ({}));
  server.setRequestHandler(CompleteRequestSchema, async () => ({ completion: { values: [], hasMore: false } }));

  const unsubscribe = executor.on("tools:changed", () => {
    void server.sendToolListChanged().catch(() => undefined);
  });
  return {
    server,
    async close() {
      unsubscribe();
      await server.close();
    },
  };
}
