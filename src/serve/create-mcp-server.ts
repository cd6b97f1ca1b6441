/**
 * An MCP server in front of an executor: every registry tool is listed and called through
 * `executor.callTool` (same validation, limits, log and events), progress and cancellation are
 * forwarded, `list_changed` follows the registry, upstream resources (subscriptions too) and prompts
 * pass through, and upstream servers' requests and log messages during a call reach the client that
 * made it (client-caller.ts). A front door:
 * it uses the executor's public surface only.
 */
import { randomUUID } from "node:crypto";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  SetLevelRequestSchema,
  type CallToolRequest,
  type CallToolResult,
  type LoggingLevel,
  type ServerNotification,
  type ServerRequest,
} from "@modelcontextprotocol/sdk/types.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { Executor } from "../index.js";
import type { CallerAccess } from "../plugin.js";
import { expectWholeNumber } from "./check-serve-options.js";
import { createClientCaller } from "./client-caller.js";
import { registerCompletionHandler } from "./serve-completions.js";
import { registerPromptHandlers } from "./serve-prompts.js";
import { registerResourceHandlers } from "./serve-resources.js";
import { traceServedCall } from "./served-call-telemetry.js";
import { servedSchemaValidator } from "./served-schema-validator.js";
import { toMcpResult, toMcpTool } from "./to-mcp-result.js";
// The telemetry scope version is the package version (src/core/package-version.ts), through a public entry.
import { INSTRUMENTATION_VERSION as PACKAGE_VERSION } from "../plugin.js";

/** Calls one client session may have running at once; more are answered `QUEUE_FULL`. */
export const DEFAULT_MAX_CALLS_PER_SESSION = 32;

export interface McpServerOptions {
  /** The server's name and version in `initialize`. Default `toolexec` and the package version. */
  name?: string;
  version?: string;
  /** Calls this session may have running at once (default 32); more are answered `QUEUE_FULL`. */
  maxConcurrentCalls?: number;
  /**
   * The HMAC key (at least 32 bytes) sealing the `requestState` of 2026-07-28 `inputRequired`
   * results, so a continuation can reach any replica and no client can forge one. Every replica
   * needs the same key. Default: the `TOOLEXEC_REQUEST_STATE_KEY` environment variable, else a
   * random key of this process (enough for one process).
   */
  requestStateKey?: string | Uint8Array;
  /**
   * Who the client is and what it may reach (a served principal's profile, scopes, tier and limits;
   * docs/identity.md): the listing is its view, and every call it makes is checked.
   */
  access?: CallerAccess;
}

export interface ServedMcpServer {
  /** The SDK server, ready to `connect(transport)`. */
  server: Server;
  /** Its `tools/call` handler, which served-request-dispatch.ts calls straight with a plain request. */
  callTool(request: CallToolRequest, extra: RequestHandlerExtra<ServerRequest, ServerNotification>): Promise<CallToolResult>;
  /** Unsubscribe from the executor and close the server's transport. The executor stays open. */
  close(): Promise<void>;
}

export { PACKAGE_VERSION };

/**
 * @example
 * import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
 * const { server } = createMcpServer(executor);
 * await server.connect(new StdioServerTransport());
 */
export function createMcpServer(executor: Executor, options: McpServerOptions = {}): ServedMcpServer {
  expectWholeNumber("maxConcurrentCalls", options.maxConcurrentCalls, 1);
  const maxCalls = options.maxConcurrentCalls ?? DEFAULT_MAX_CALLS_PER_SESSION;
  const server = new Server(
    { name: options.name ?? "toolexec", version: options.version ?? PACKAGE_VERSION },
    {
      capabilities: { tools: { listChanged: true }, resources: { subscribe: true }, prompts: {}, logging: {}, completions: {} },
      jsonSchemaValidator: servedSchemaValidator,
    },
  );
  let running = 0;
  let logLevel: LoggingLevel | undefined;
  // stdio has no session id: the served session makes one, so its calls are logged (and routed) together.
  const ownSessionId = randomUUID();

  const { access } = options;
  server.setRequestHandler(ListToolsRequestSchema, async () => {
    const tools = await executor.listTools(access === undefined ? undefined : { access });
    return { tools: tools.map(toMcpTool) };
  });

  // Traced as a SERVER span whose parent is the client's trace context in `params._meta`.
  const callTool: ServedMcpServer["callTool"] = (request, extra) => traceServedCall({ params: request.params, extra }, async (): Promise<CallToolResult> => {
    if (running >= maxCalls) {
      return toMcpResult({ ok: false, error: { code: "QUEUE_FULL", message: `This session already has ${maxCalls} calls running; wait for one to finish` }, executionId: "", tool: request.params.name, durationMs: 0 });
    }
    const progressToken = request.params._meta?.progressToken;
    const clientCaller = createClientCaller({
      server,
      sessionId: extra.sessionId ?? ownSessionId,
      requestId: extra.requestId,
      sendNotification: (notification) => extra.sendNotification(notification),
      logLevel: () => logLevel,
    });
    const caller = access === undefined ? clientCaller : { ...clientCaller, access };
    running++;
    try {
      const result = await executor.callTool(request.params.name, request.params.arguments ?? {}, {
        signal: extra.signal,
        caller,
        // What a served client gets is what its model reads: bounded, with a handle for the rest.
        bounded: true,
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
  server.setRequestHandler(CallToolRequestSchema, callTool);

  const resources = registerResourceHandlers(server, executor, (sessionId) => ({ sessionId: sessionId ?? ownSessionId }));
  // However the session ends (DELETE, the client gone, close()), its upstream subscriptions end with it.
  server.onclose = () => void resources.close();
  registerPromptHandlers(server, executor);
  server.setRequestHandler(SetLevelRequestSchema, async (request) => {
    logLevel = request.params.level;
    return {};
  });
  registerCompletionHandler(server, executor);

  const unsubscribe = executor.on("tools:changed", () => {
    void server.sendToolListChanged().catch(() => undefined);
  });
  return {
    server,
    callTool,
    async close() {
      unsubscribe();
      await server.close();
      await resources.close();
    },
  };
}
