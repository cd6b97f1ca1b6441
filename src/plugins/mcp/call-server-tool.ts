/**
 * One `tools/call` on the server that serves the tool: a free slot of the server's `maxConcurrency`,
 * the caller routed for the server's own requests, retries where they are safe, and the answer
 * checked against `maxResponseBytes` before it is unwrapped.
 */
import { abortReasonCode, type PluginCallOptions, type PluginResult, type ToolCall } from "../../core/plugin-contract.js";
import { toolError } from "../../core/tool-result.js";
import { connectionForCaller, principalLoginRequired } from "./principal-connections.js";
import { requestWithRetry } from "./request-with-retry.js";
import type { ServerPool } from "./server-pool.js";
import { isRetrySafe } from "./tool-definitions.js";
import { TOOL_RESULT_CHECK } from "./tool-result-check.js";
import type { Route } from "./tool-routes.js";
import { estimateJsonBytes, unwrapToolResult } from "./unwrap-tool-result.js";

/** The SDK's own request timeout sits this far past the call's deadline, so the call's signal speaks first. */
const SDK_TIMEOUT_SLACK_MS = 1_000;

export async function callServerTool(pool: ServerPool, route: Route | undefined, call: ToolCall, { signal, deadline, onProgress, caller }: PluginCallOptions): Promise<PluginResult> {
  if (!route) return toolError("TOOL_NOT_FOUND", `No MCP tool named "${call.name}"`);
  if (signal.aborted) return toolError(abortReasonCode(signal), `"${call.name}" was aborted before it was sent`);
  const { tool } = route;
  // A per-user server: the caller's principal's own connection, or a refusal naming the login to make.
  const chosen = await connectionForCaller(route.connection, caller);
  if (!chosen.ok) return toolError(chosen.error.code, chosen.error.message, chosen.error.details);
  const { connection, principal } = chosen;
  const gate = pool.gate(connection);
  try {
    // A free slot is taken at once, without a promise to wait on.
    if (!gate.tryAcquire()) await gate.acquire(signal);
  } catch {
    chosen.release();
    return toolError(signal.aborted ? abortReasonCode(signal) : "EXECUTOR_CLOSED", `"${call.name}" ended while waiting for a free slot on server "${tool.server}" (maxConcurrency ${connection.entry.maxConcurrency})`);
  }
  // While the call runs, the server's own requests and log messages may be its caller's.
  const leave = connection.callers.enter(caller);
  try {
    const outcome = await requestWithRetry(
      connection,
      (session) =>
        session.request({ method: "tools/call", params: { name: tool.tool, arguments: call.arguments } }, TOOL_RESULT_CHECK, {
          signal,
          timeoutMs: Math.max(1, deadline - Date.now()) + SDK_TIMEOUT_SLACK_MS,
          ...(onProgress ? { onProgress } : {}),
        }),
      { deadline, signal, repeatable: isRetrySafe(tool.definition), what: call.name },
    );
    if (!outcome.ok && outcome.failure.code === "AUTH_REQUIRED" && principal) {
      const refused = principalLoginRequired(tool.server, principal, "its login was refused (expired or revoked, and no refresh worked)");
      return toolError(refused.code, refused.message, refused.details);
    }
    if (!outcome.ok) return toolError(outcome.failure.code ?? "SERVICE_UNAVAILABLE", outcome.failure.message, { server: tool.server, ...outcome.failure.details });
    const limit = connection.entry.maxResponseBytes;
    const bytes = await estimateJsonBytes(outcome.value, limit);
    if (bytes > limit) return toolError("OUTPUT_TOO_LARGE", `"${call.name}" answered with more than ${limit} bytes (maxResponseBytes of server "${tool.server}")`, { server: tool.server, maxResponseBytes: limit });
    return unwrapToolResult(tool.server, tool.tool, outcome.value);
  } finally {
    leave();
    gate.release();
    chosen.release();
  }
}
