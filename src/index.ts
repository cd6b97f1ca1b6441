/**
 * toolexec: one trustworthy place for LLM agents to run tools. This entry has what a host needs to
 * create an executor, call tools and handle results, events and errors. The details of an area are
 * in its own entry: `toolexec/mcp` (MCP servers, trust, OAuth), `toolexec/code` (code mode, saved
 * tools), `toolexec/config` (the config files and registry writes); plugin authors use
 * `toolexec/plugin` (the contract) and `toolexec/testing` (its suite).
 *
 * @example
 * import { createExecutor } from "toolexec";
 * const executor = await createExecutor({ root: process.cwd() });
 * console.log(await executor.listTools());
 */
export { createExecutor } from "./create-executor.js";
export type { Executor } from "./executor.js";
export type { ExecutorOptions } from "./executor-options.js";
export type { Store } from "./core/store/store.js";
export type { ToolInfo, ReloadResult, ConfigStatus } from "./core/executor/create-core-executor.js";
export type { ExecutorEvents } from "./core/executor/executor-events.js";
export type { Unsubscribe } from "./core/events.js";
export type { ToolResult, ToolSuccess, ToolFailure } from "./core/tool-result.js";
export type { ExecutorPlugin, CallToolOptions, CallerInfo, PersonAnswer, ToolProgress, ToolAnnotations, JsonSchema, Logger } from "./core/plugin-contract.js";
export { ERROR_CODES } from "./core/errors/error-codes.js";
export type { ErrorCode } from "./core/errors/error-codes.js";
export { ToolexecError, isToolexecError } from "./core/errors/toolexec-error.js";
export { ConfigError, isConfigError, formatConfigIssue } from "./core/errors/config-error.js";
export type { ConfigIssue } from "./core/errors/config-error.js";
export { CODE_EXECUTION_TOOL_NAME, HUMAN_INPUT_TOOL_NAME, WEB_SEARCH_TOOL_NAME, READ_RESULT_TOOL_NAME } from "./core/tool-names.js";
export type { TruncatedResult, OmittedPart, ResultsOptions } from "./core/results/result-budget.js";
export { MAX_TIMEOUT_MS } from "./core/config/tools-config-schema.js";
export type { HumanInputHandler, HumanInputRequest } from "./plugins/human/human-input-plugin.js";
export type { ToolSearchResult, ToolSearchOptions } from "./plugins/search/search-plugin.js";
