/**
 * The names toolexec's telemetry uses: OpenTelemetry's GenAI and MCP semantic conventions
 * (status Development; `docs/gen-ai/gen-ai-spans.md` and `docs/gen-ai/mcp.md` of
 * open-telemetry/semantic-conventions-genai) where they define one, and `toolexec.*` for our own.
 * docs/observability.md lists every one; a name here is a contract.
 */

import { PACKAGE_VERSION } from "../package-version.js";

/** The instrumentation scope of every tracer and meter toolexec asks for. */
export const INSTRUMENTATION_NAME = "toolexec";
export const INSTRUMENTATION_VERSION = PACKAGE_VERSION;

export const ATTRIBUTE = {
  operationName: "gen_ai.operation.name",
  toolName: "gen_ai.tool.name",
  toolCallId: "gen_ai.tool.call.id",
  toolType: "gen_ai.tool.type",
  toolDescription: "gen_ai.tool.description",
  toolCallArguments: "gen_ai.tool.call.arguments",
  toolCallResult: "gen_ai.tool.call.result",
  errorType: "error.type",
  mcpMethodName: "mcp.method.name",
  mcpSessionId: "mcp.session.id",
  mcpProtocolVersion: "mcp.protocol.version",
  jsonRpcRequestId: "jsonrpc.request.id",
  networkTransport: "network.transport",
  serverAddress: "server.address",
  serverPort: "server.port",
  processPid: "process.pid",
  processExecutableName: "process.executable.name",
  processExitCode: "process.exit.code",
  /** toolexec's own: the plugin that ran a call (`script`, `mcp`, `code`...). */
  plugin: "toolexec.plugin",
  /** toolexec's own: the call's id in the execution log (`executionId`). */
  executionId: "toolexec.execution.id",
  /** toolexec's own: the configured name of the MCP server a call or request went to. */
  serverName: "toolexec.server.name",
  /** toolexec's own: `ok` or `error`, on `toolexec.tool.calls`. */
  outcome: "toolexec.call.outcome",
  /** toolexec's own: an MCP server's state, on `toolexec.server.state`. */
  serverState: "toolexec.server.state",
  /** toolexec's own: a Python function tool's worker (its interpreter and module). */
  workerModule: "toolexec.worker.module",
} as const;

export const EXECUTE_TOOL = "execute_tool";
/** `error.type` of an MCP `tools/call` answered with `isError: true`. */
export const TOOL_ERROR = "tool_error";

export const METRIC = {
  mcpClientDuration: "mcp.client.operation.duration",
  mcpServerDuration: "mcp.server.operation.duration",
  toolCalls: "toolexec.tool.calls",
  toolDuration: "toolexec.tool.duration",
  queueWait: "toolexec.tool.queue.wait",
  callsQueued: "toolexec.calls.queued",
  callsRunning: "toolexec.calls.running",
  serverState: "toolexec.server.state",
} as const;

/** The bucket boundaries (seconds) the MCP conventions give for both operation-duration histograms; ours use them too. */
export const DURATION_BUCKETS_SECONDS: readonly number[] = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];
/** Queue waits are short or a symptom: finer buckets at the low end. */
export const QUEUE_WAIT_BUCKETS_SECONDS: readonly number[] = [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 30];
