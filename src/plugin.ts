/**
 * `toolexec/plugin`: what a plugin author needs — the plugin contract (three required members and
 * optional capabilities), result helpers, and the naming and environment rules every plugin shares.
 * See docs/plugins.md.
 *
 * @example
 * import { toolError, type ExecutorPlugin } from "toolexec/plugin";
 * export const clock: ExecutorPlugin = {
 *   name: "clock",
 *   async start() {
 *     return {
 *       listTools: () => [{ name: "now", description: "Current time, ISO 8601", inputSchema: { type: "object" } }],
 *       callTool: async (call) => (call.name === "now" ? { ok: true, value: new Date().toISOString() } : toolError("TOOL_NOT_FOUND", call.name)),
 *       close: async () => {},
 *     };
 *   },
 * };
 */
export { PLUGIN_CONTRACT_VERSION, MIN_PLUGIN_CONTRACT_VERSION, abortReasonCode } from "./core/plugin-contract.js";
export type { PluginConfigSection, ToolsKeySection, FileSection, ConfigSectionContext, ConfigPath, ToolDefaults } from "./core/plugin-config.js";
export type {
  ExecutorPlugin,
  PluginInstance,
  PluginContext,
  PluginCallOptions,
  PluginResult,
  ToolDefinition,
  ToolCall,
  ToolErrorInfo,
  UnavailableTool,
  ToolAnnotations,
  ToolProgress,
  ExecutionRecord,
  JsonSchema,
  Logger,
  CallToolOptions,
  CallerInfo,
  CallerAccess,
  CallerRecord,
  PersonAnswer,
} from "./core/plugin-contract.js";
export type { PluginEvents } from "./core/plugin-events.js";
export type { CoreEvents } from "./core/executor/executor-events.js";
export { toolError } from "./core/tool-result.js";
export type { ToolResult, ToolSuccess, ToolFailure } from "./core/tool-result.js";
export { ToolexecError, isToolexecError } from "./core/errors/toolexec-error.js";
export type { ErrorCode } from "./core/errors/error-codes.js";
export {
  TOOL_NAME_SEPARATOR,
  TOOL_NAME_PATTERN,
  PLUGIN_TOOL_NAME_PATTERN,
  MAX_TOOL_NAME_LENGTH,
  RESERVED_TOOL_NAMES,
  RESERVED_SERVER_NAMES,
  SEARCH_TOOLS_TOOL_NAME,
  DESCRIBE_TOOLS_TOOL_NAME,
  CALL_TOOL_TOOL_NAME,
  SERVER_NAME_PATTERN,
} from "./core/tool-names.js";
export { INHERITED_ENV_NAMES, inheritedEnvironment } from "./core/host-environment.js";
export { toDraft2020Schema } from "./core/schema/to-draft-2020-schema.js";
/** Telemetry names (OpenTelemetry GenAI/MCP conventions and toolexec's own) and helpers, for plugins that add spans or metrics of their own. */
export {
  ATTRIBUTE as TELEMETRY_ATTRIBUTES,
  METRIC as TELEMETRY_METRICS,
  DURATION_BUCKETS_SECONDS,
  EXECUTE_TOOL,
  TOOL_ERROR,
  INSTRUMENTATION_NAME,
  INSTRUMENTATION_VERSION,
} from "./core/telemetry/telemetry-names.js";
export { isCapturingContent, isTracingEnabled } from "./core/telemetry/tracing-enabled.js";
export { meterInstruments } from "./core/telemetry/meter-instruments.js";
