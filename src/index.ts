/**
 * toolexec: one trustworthy place for LLM agents to run tools. This entry has what a host needs;
 * plugin authors also use `toolexec/plugin` (the contract) and `toolexec/testing` (its suite).
 *
 * @example
 * import { createExecutor } from "toolexec";
 * const executor = await createExecutor({ root: process.cwd() });
 * console.log(await executor.listTools());
 */
export { createExecutor } from "./create-executor.js";
export type { Executor, ExecutorOptions, SavedToolDefinition } from "./create-executor.js";
export type { SavedTool } from "./plugins/code/saved/saved-tool-file.js";
export type { SavedToolSummary } from "./plugins/code/saved/saved-tools.js";
export type { ToolInfo, ReloadResult, ConfigStatus } from "./core/executor/create-core-executor.js";
export type { RegistryChange, RegistrySnapshot, RegistryWriteOptions, RegisteredEntry } from "./core/registry/tools-config-writer.js";
export type { ExecutorEvents, CoreEvents } from "./core/executor/executor-events.js";
export type { Unsubscribe } from "./core/events.js";
export { loadProjectConfig } from "./load-project-config.js";
export type { ProjectConfig, ProjectConfigOptions } from "./load-project-config.js";
export type { PythonFunctionEntry, ScriptToolEntry } from "./core/config/load-tools-config.js";
export type { PythonEntry, PythonModuleEntry } from "./plugins/python/python-plugin.js";
export type { McpServerEntry, StdioServerEntry, RemoteServerEntry, McpRetryPolicy } from "./plugins/mcp/config/resolve-mcp-server.js";
export type { CodeExecutionConfig } from "./plugins/code/config/code-execution-config-schema.js";
export type { WebSearchConfig } from "./plugins/web-search/config/web-search-config-schema.js";
export type { WebSearchSettings } from "./plugins/web-search/config/resolve-web-search-config.js";
export { ERROR_CODES } from "./core/errors/error-codes.js";
export type { ErrorCode } from "./core/errors/error-codes.js";
export { ToolexecError, isToolexecError } from "./core/errors/toolexec-error.js";
export { ConfigError, isConfigError, formatConfigIssue } from "./core/errors/config-error.js";
export type { ConfigIssue } from "./core/errors/config-error.js";
export type { ExecutorPlugin, CallToolOptions, CallerInfo, PersonAnswer, ToolProgress, ToolAnnotations, JsonSchema, Logger } from "./core/plugin-contract.js";
export type { ToolResult, ToolSuccess, ToolFailure } from "./core/tool-result.js";
export { CODE_EXECUTION_TOOL_NAME, HUMAN_INPUT_TOOL_NAME, WEB_SEARCH_TOOL_NAME } from "./core/tool-names.js";
export { MAX_TIMEOUT_MS } from "./core/config/tools-config-schema.js";
export { RESERVED_TOOL_NAMES } from "./core/tool-names.js";
export type { HumanInputHandler, HumanInputRequest } from "./plugins/human/human-input-plugin.js";
export type { McpApi, AddServerResult } from "./plugins/mcp/mcp-plugin.js";
export type { AddServerOptions } from "./plugins/mcp/prepare-runtime-server.js";
export type { McpServerInfo, McpServerState, McpResourceInfo, McpResourceTemplateInfo, McpResourceContent, McpServerEvents } from "./plugins/mcp/server-info.js";
export type { GetPromptOutcome, McpPromptInfo } from "./plugins/mcp/server-prompts.js";
export type { CompleteOutcome, CompletionRequest } from "./plugins/mcp/server-completions.js";
export type { ReadResourceResult, ResourceRequestOptions } from "./plugins/mcp/server-resources.js";
export type { ElicitationHandler, ElicitationRequest, ElicitationResponse } from "./plugins/mcp/elicitation.js";
export type { SamplingHandler, SamplingRequest } from "./plugins/mcp/sampling.js";
export type { ResourceUpdateListener, SubscribeResourceResult } from "./plugins/mcp/resource-subscriptions.js";
export type { TrustPolicy } from "./plugins/mcp/config/mcp-server-schema.js";
export type { TrustEvents, QuarantineReason } from "./plugins/mcp/trust/trust-events.js";
export type { TrustReview, ServerReview, ToolReview, TrustDecisionResult } from "./plugins/mcp/trust/trust-review.js";
export type { HygieneWarning, HygieneKind } from "./plugins/mcp/trust/description-hygiene.js";
export type { ToolChange } from "./plugins/mcp/trust/describe-tool-change.js";
export type { UnmatchedPattern } from "./plugins/mcp/trust/tool-filter.js";
export type { AuthorizationHandler, AuthorizationRequest } from "./plugins/mcp/auth/server-authorization.js";
export { createFileTokenStore } from "./plugins/mcp/auth/token-store.js";
export type { OAuthTokenStore, StoredAuthorization } from "./plugins/mcp/auth/token-store.js";
export type { ServerLogins, StartLoginResult, FinishLoginResult } from "./plugins/mcp/server-logins.js";
export type { CodeRequest, CodeResult, CodeToolCall } from "./plugins/code/code-result.js";
export type { ToolSearchResult, ToolSearchOptions } from "./plugins/search/search-plugin.js";
export { codeExecutionInputSchema } from "./plugins/code/declarations/code-execution-input-schema.js";
