/**
 * `toolexec/serve`: make an executor an MCP server, over stdio or Streamable HTTP. See docs/serve.md.
 *
 * @example
 * import { createExecutor } from "toolexec";
 * import { serveHttp } from "toolexec/serve";
 * const executor = await createExecutor({ root: "./my-project" });
 * const serving = await serveHttp(executor, { port: 8931 });
 */
export { createMcpServer, DEFAULT_MAX_CALLS_PER_SESSION } from "./serve/create-mcp-server.js";
export type { McpServerOptions, ServedMcpServer } from "./serve/create-mcp-server.js";
export { serveStdio } from "./serve/serve-stdio.js";
export type { StdioServing } from "./serve/serve-stdio.js";
export { serveHttp } from "./serve/serve-http-on-demand.js";
export type { HttpServeOptions, HttpServing } from "./serve/serve-http.js";
export { MANAGEMENT_API_PATH } from "./serve/management-api/management-routes.js";
export type { RegistryAuditEntry } from "./serve/management-api/audit-log.js";
export { ERROR_CODE_META_KEY, OUTPUT_META_KEY, TRUNCATED_META_KEY } from "./serve/to-mcp-result.js";
export { RESULT_URI_PREFIX } from "./serve/served-results.js";
export { createMetricsRegistry } from "./serve/metrics/metrics-registry.js";
export type { MetricsRegistry, InstrumentData, InstrumentKind, Series } from "./serve/metrics/metrics-registry.js";
export { fanOutMeterProviders } from "./serve/metrics/fan-out-meter-provider.js";
export { toPrometheusText, prometheusName, PROMETHEUS_CONTENT_TYPE } from "./serve/metrics/prometheus-text.js";
export { checkReadiness } from "./serve/health-routes.js";
export type { Readiness } from "./serve/health-routes.js";
export { createApiKey, listApiKeys, revokeApiKey, API_KEYS_PREFIX } from "./serve/identity/api-keys.js";
export type { ApiKeyRecord, CreateKeyOptions, KeyStorage } from "./serve/identity/api-keys.js";
export type { IdentityOptions } from "./serve/identity/served-identity.js";
export type { OAuthSettings } from "./serve/identity/jwt-verifier.js";
export type { LimitSettings } from "./serve/identity/principal-limits.js";
export { OPERATOR_SCOPE, TIERS } from "./serve/identity/principal.js";
export type { Principal, PrincipalKind, Tier } from "./serve/identity/principal.js";
