/**
 * `toolexec/mcp`: the types of the MCP plugin's part of the executor — servers and their states,
 * resources, prompts, completions, elicitation and sampling, tool trust, OAuth logins and token
 * stores, and mcp.json's resolved entries. See docs/mcp.md, docs/tool-trust.md and docs/auth.md.
 *
 * @example
 * import { createExecutor } from "toolexec";
 * import { createFileTokenStore, type McpServerInfo } from "toolexec/mcp";
 * const executor = await createExecutor({ mcp: { tokenStore: createFileTokenStore("/secure/oauth") } });
 * const down: McpServerInfo[] = executor.servers().filter((server) => server.state !== "connected");
 */
export type { McpApi, AddServerResult } from "./plugins/mcp/mcp-plugin.js";
export type { AddServerOptions } from "./plugins/mcp/prepare-runtime-server.js";
export type { McpServerInfo, McpServerState, McpResourceInfo, McpResourceTemplateInfo, McpResourceContent, McpServerEvents } from "./plugins/mcp/server-info.js";
export type { GetPromptOutcome, McpPromptInfo } from "./plugins/mcp/server-prompts.js";
export type { CompleteOutcome, CompletionRequest } from "./plugins/mcp/server-completions.js";
export type { ReadResourceResult, ResourceRequestOptions } from "./plugins/mcp/server-resources.js";
export type { ResourceUpdateListener, SubscribeResourceResult } from "./plugins/mcp/resource-subscriptions.js";
export type { ElicitationHandler, ElicitationRequest, ElicitationResponse } from "./plugins/mcp/elicitation.js";
export type { SamplingHandler, SamplingRequest } from "./plugins/mcp/sampling.js";
export type { TrustEvents, QuarantineReason } from "./plugins/mcp/trust/trust-events.js";
export type { TrustReview, ServerReview, ToolReview, TrustDecisionResult } from "./plugins/mcp/trust/trust-review.js";
export type { HygieneWarning, HygieneKind } from "./plugins/mcp/trust/description-hygiene.js";
export type { ToolChange } from "./plugins/mcp/trust/describe-tool-change.js";
export type { UnmatchedPattern } from "./plugins/mcp/trust/tool-filter.js";
export type { AuthorizationHandler, AuthorizationRequest } from "./plugins/mcp/auth/server-authorization.js";
export { createFileTokenStore } from "./plugins/mcp/auth/token-store.js";
export type { OAuthTokenStore, StoredAuthorization } from "./plugins/mcp/auth/token-store.js";
export type { ServerLoginOptions, ServerLogins, StartLoginResult, FinishLoginResult } from "./plugins/mcp/server-logins.js";
export type { McpServerEntry, StdioServerEntry, RemoteServerEntry, McpRetryPolicy } from "./plugins/mcp/config/resolve-mcp-server.js";
export type { TrustPolicy } from "./plugins/mcp/config/mcp-server-schema.js";
