/** The events an executor emits, by name, with their payloads. */
import type { ConfigIssue } from "../errors/config-error.js";
import type { ToolexecError } from "../errors/toolexec-error.js";
import type { ToolProgress } from "../plugin-contract.js";
import type { ToolFailure, ToolResult } from "../tool-result.js";
import type { CodeResult } from "../../plugins/code/code-result.js";
import type { McpServerEvents } from "../../plugins/mcp/server-info.js";

export interface ExecutorEvents {
  /** A call passed validation and is about to be scheduled. */
  "tool:start": { executionId: string; tool: string; arguments: Record<string, unknown>; parentExecutionId?: string };
  /** Every call ends with exactly one `tool:end`, success or failure. */
  "tool:end": ToolResult & { parentExecutionId?: string };
  /** Also emitted, after `tool:end`, for failed calls. */
  "tool:error": ToolFailure & { parentExecutionId?: string };
  /** A plugin reported progress of a call under way. */
  "tool:progress": ToolProgress & { executionId: string; tool: string; parentExecutionId?: string };
  /** The tool list changed without a config reload (a plugin told us). */
  "tools:changed": { tools: string[] };
  /** A config change was applied. `restarted` names the plugins that restarted. */
  "config:reloaded": { restarted: string[]; tools: string[]; warnings: ConfigIssue[] };
  /** A config change was rejected; the last good config keeps running. */
  "config:error": { error: ToolexecError; message: string };
  /** A code run was accepted (its request passed the checks); `code` is its first 500 characters. */
  "code:start": { executionId: string; code: string; inputBytes: number; timeoutMs: number };
  /** Every accepted code run ends with exactly one `code:end`, carrying its result. */
  "code:end": CodeResult & { executionId: string };
  /** An MCP server was initialized (again after a drop: `reconnected`). */
  "server:connected": McpServerEvents["server:connected"];
  /** An MCP server became unusable: its first connection failed or a live one dropped; `reason` says why. */
  "server:disconnected": McpServerEvents["server:disconnected"];
  /** A background reconnection to an MCP server is scheduled for `nextAttemptAt` (epoch ms). */
  "server:retrying": McpServerEvents["server:retrying"];
}
