/** The events an executor emits, by name, with their payloads: the core's own, and every plugin's. */
import type { ConfigIssue } from "../errors/config-error.js";
import type { ToolexecError } from "../errors/toolexec-error.js";
import type { ToolProgress } from "../plugin-contract.js";
import type { PluginEvents } from "../plugin-events.js";
import type { ToolFailure, ToolResult } from "../tool-result.js";

/** The events of the core: calls, the registry and the config. */
export interface CoreEvents {
  /** A call passed validation and is about to be scheduled. */
  "tool:start": { executionId: string; tool: string; arguments: Record<string, unknown>; parentExecutionId?: string };
  /** Every call ends with exactly one `tool:end`, success or failure. */
  "tool:end": ToolResult & { parentExecutionId?: string };
  /** Also emitted, after `tool:end`, for failed calls. */
  "tool:error": ToolFailure & { parentExecutionId?: string };
  /** A plugin reported progress of a call under way. */
  "tool:progress": ToolProgress & { executionId: string; tool: string; parentExecutionId?: string };
  /**
   * The tool list changed, for any reason: a config reload, a server that connected or dropped, an
   * upstream `list_changed`, a server added at run time. `tools` is the whole list after the change.
   */
  "tools:changed": { tools: string[]; added: string[]; removed: string[]; changed: string[] };
  /** A config change was applied. `restarted` names the plugins that restarted. */
  "config:reloaded": { restarted: string[]; tools: string[]; warnings: ConfigIssue[] };
  /** A config change was rejected; the last good config keeps running. */
  "config:error": { error: ToolexecError; message: string };
}

/** Every event an executor emits: the core's and those the plugins declare in `PluginEvents`. */
export type ExecutorEvents = CoreEvents & PluginEvents;
