/**
 * The `call_tool` tool of the search-first listing: calls any registry tool by name, so a model
 * shown only `search_tools`, `call_tool` and a few pinned tools can still use every tool it finds.
 * The call is a sub-call through the whole pipeline (its input checked against the tool's schema,
 * its own timeout, logged with this call as parent), cancelled with this call.
 */
import type { PluginCallOptions, PluginResult, ToolDefinition } from "../../core/plugin-contract.js";
import { MAX_TIMEOUT_MS } from "../../core/config/timeout-limits.js";
import { CALL_TOOL_TOOL_NAME, DESCRIBE_TOOLS_TOOL_NAME, SEARCH_TOOLS_TOOL_NAME } from "../../core/tool-names.js";
import { toolError } from "../../core/tool-result.js";

export const CALL_TOOL_DEFINITION: ToolDefinition = {
  name: CALL_TOOL_TOOL_NAME,
  description:
    `Call any tool by its name with its arguments; use ${SEARCH_TOOLS_TOOL_NAME} first to find the tool. ` +
    "Returns what the tool returns, or its error.",
  inputSchema: {
    type: "object",
    properties: {
      name: { type: "string", minLength: 1, maxLength: 128, description: `The tool's name, as ${SEARCH_TOOLS_TOOL_NAME} returned it.` },
      arguments: { type: "object", description: `The tool's arguments, as its input schema asks (default {}); ${DESCRIBE_TOOLS_TOOL_NAME} shows the schema.` },
    },
    required: ["name"],
    additionalProperties: false,
  },
  annotations: { title: "Call a tool", openWorldHint: true },
  // The called tool keeps its own timeout, concurrency and queue; this wrapper adds none.
  timeoutMs: MAX_TIMEOUT_MS,
  parallel: true,
  selfScheduled: true,
};

/**
 * Run `call_tool`: the named tool's own result, as a sub-call of this one. `closed` aborts when the
 * plugin closes, ending the sub-call (and so this call) with it.
 */
export async function callNamedTool(args: { name: string; arguments?: Record<string, unknown> }, options: PluginCallOptions, closed: AbortSignal): Promise<PluginResult> {
  if (args.name === CALL_TOOL_TOOL_NAME) return toolError("INVALID_INPUT", `${CALL_TOOL_TOOL_NAME} cannot call itself`);
  const result = await options.callTool(args.name, args.arguments ?? {}, { signal: AbortSignal.any([options.signal, closed]) });
  return result.ok ? { ok: true, value: result.value } : { ok: false, error: result.error };
}
