/**
 * toolexec: one trustworthy place for LLM agents to run tools.
 *
 * @example
 * import { createExecutor } from "toolexec";
 * const executor = await createExecutor({ root: process.cwd() });
 * console.log(await executor.listTools());
 */
export { createExecutor } from "./core/executor/create-executor.js";
export type { Executor, ToolInfo, ReloadResult } from "./core/executor/create-executor.js";
export type { ExecutorOptions } from "./core/executor/executor-options.js";
export {
  DEFAULT_MAX_CONCURRENCY,
  DEFAULT_MAX_QUEUE,
  DEFAULT_LOG_DIR,
  DEFAULT_RELOAD_DEBOUNCE_MS,
} from "./core/executor/executor-options.js";
export type { ExecutorEvents } from "./core/executor/executor-events.js";
export type { Unsubscribe } from "./core/events.js";
export { loadProjectConfig } from "./core/config/load-project-config.js";
export type { ProjectConfig, ProjectConfigOptions } from "./core/config/load-project-config.js";
export type { ScriptToolEntry } from "./core/config/load-tools-config.js";
export type { McpServerEntry } from "./core/config/load-mcp-config.js";
export { DEFAULT_TIMEOUT_MS, DEFAULT_MAX_OUTPUT_BYTES, MAX_TIMEOUT_MS, TOOL_NAME_PATTERN, PLUGIN_TOOL_NAME_PATTERN, RESERVED_TOOL_NAMES } from "./core/config/tools-config-schema.js";
export { ERROR_CODES } from "./core/errors/error-codes.js";
export type { ErrorCode } from "./core/errors/error-codes.js";
export { ToolexecError, isToolexecError } from "./core/errors/toolexec-error.js";
export { ConfigError, isConfigError, formatConfigIssue } from "./core/errors/config-error.js";
export type { ConfigIssue } from "./core/errors/config-error.js";
export { PLUGIN_CONTRACT_VERSION, abortReasonCode } from "./core/plugin-contract.js";
export type {
  ExecutorPlugin,
  PluginInstance,
  PluginContext,
  PluginCallOptions,
  PluginResult,
  ToolDefinition,
  ToolCall,
  ToolErrorInfo,
  ToolAnnotations,
  JsonSchema,
  Logger,
  CallToolOptions,
  ToolProgress,
} from "./core/plugin-contract.js";
export type { ToolResult, ToolSuccess, ToolFailure } from "./core/tool-result.js";
export { toolError } from "./core/tool-result.js";
export { DEFAULT_LOG_INTERVAL, DEFAULT_LOG_MAX_FILES, LOG_FILE_NAME } from "./core/log/execution-log.js";
export { DEFAULT_REDACT_KEYS, REDACTED } from "./core/log/redact.js";
export { HUMAN_INPUT_TOOL_NAME, DEFAULT_HUMAN_INPUT_TIMEOUT_MS } from "./plugins/human/human-input-plugin.js";
export type { HumanInputHandler, HumanInputRequest } from "./plugins/human/human-input-plugin.js";
export { INHERITED_ENV_NAMES } from "./plugins/script/script-environment.js";
export { DEFAULT_MCP_STARTUP_TIMEOUT_MS } from "./plugins/mcp/mcp-plugin.js";
export type { AddServerResult } from "./plugins/mcp/mcp-plugin.js";
export type { AddServerOptions } from "./plugins/mcp/prepare-runtime-server.js";
export type { McpServerInfo, McpServerState, McpResourceInfo, McpResourceContent, McpServerEvents } from "./plugins/mcp/server-info.js";
export type { ReadResourceResult, ResourceRequestOptions } from "./plugins/mcp/server-resources.js";
export type { ElicitationHandler, ElicitationRequest, ElicitationResponse } from "./plugins/mcp/elicitation.js";
export { exposedToolName, TOOL_NAME_SEPARATOR } from "./plugins/mcp/tool-definitions.js";
export {
  DEFAULT_MCP_RETRIES,
  DEFAULT_MCP_MIN_DELAY_MS,
  DEFAULT_MCP_MAX_DELAY_MS,
  DEFAULT_MCP_MAX_CONCURRENCY,
  DEFAULT_MCP_MAX_RESPONSE_BYTES,
} from "./core/config/mcp-server-schema.js";
export type { StdioServerEntry, RemoteServerEntry, McpRetryPolicy } from "./core/config/resolve-mcp-server.js";
export type { CodeRequest, CodeResult } from "./plugins/code/code-result.js";
export { toCodeResult } from "./plugins/code/code-result.js";
export type { ToolCallTrace } from "./plugins/code/tool-dispatch.js";
export type { CodeExecutionConfig } from "./core/config/code-execution-config-schema.js";
export {
  DEFAULT_CODE_TIMEOUT_MS,
  DEFAULT_CODE_MAX_TOOL_CALLS,
  DEFAULT_CODE_POOL_SIZE,
  DEFAULT_CODE_MAX_QUEUE,
  DEFAULT_CODE_MEMORY_LIMIT_MB,
  DEFAULT_CODE_MAX_RESULT_BYTES,
  DEFAULT_CODE_MAX_LOG_BYTES,
  DEFAULT_CODE_MAX_CODE_BYTES,
} from "./core/config/code-execution-config-schema.js";
