/**
 * A toolexec result as an MCP `tools/call` result: a success carries the upstream tool's own content
 * blocks when it has them (images, audio, resource links pass through unchanged), else the value as
 * text, plus `structuredContent` when the value is an object; a failure is an `isError` result whose
 * text is `CODE: message` and whose code is machine-readable in `_meta`. A raw output that is not MCP
 * content (a saved tool's run audit) rides in `_meta` too. A result cut to its budget is its bounded
 * text, with the handle and the resource URI of the whole in `_meta`.
 */
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import type { ToolInfo, ToolResult } from "../index.js";
import { resultUri } from "./served-results.js";
import { toDraft2020Schema } from "../plugin.js";

/** The `_meta` key that carries a failed call's toolexec error code. */
export const ERROR_CODE_META_KEY = "toolexec/errorCode";
/**
 * The `_meta` key that carries a success's raw output when it is not MCP content: a saved tool's run
 * (`logs`, `tool_calls`, `duration_ms`), which the library gives its caller as `result.content`.
 */
export const OUTPUT_META_KEY = "toolexec/output";
/**
 * The `_meta` key of a result cut to its budget: `{ handle, uri, totalChars, maxChars }`; the rest
 * is read with `read_result` or as the resource at `uri`.
 */
export const TRUNCATED_META_KEY = "toolexec/truncated";

const CONTENT_TYPES = new Set(["text", "image", "audio", "resource", "resource_link"]);

const isPlainObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === "object" && !Array.isArray(value);

/** Raw MCP content blocks, as the MCP plugin keeps them in `result.content`. */
function contentBlocks(content: unknown): CallToolResult["content"] | undefined {
  if (!Array.isArray(content) || content.length === 0) return undefined;
  return content.every((block) => isPlainObject(block) && CONTENT_TYPES.has(block.type as string)) ? (content as CallToolResult["content"]) : undefined;
}

function asText(value: unknown): string {
  if (typeof value === "string") return value;
  try {
    return JSON.stringify(value) ?? "null";
  } catch {
    return String(value);
  }
}

/**
 * @example
 * toMcpResult({ ok: true, value: { rows: 3 }, executionId, tool: "csv_summary", durationMs: 80 });
 * // { content: [{ type: "text", text: '{"rows":3}' }], structuredContent: { rows: 3 } }
 */
export function toMcpResult(result: ToolResult): CallToolResult {
  if (!result.ok) {
    return { isError: true, content: [{ type: "text", text: `${result.error.code}: ${result.error.message}` }], _meta: { [ERROR_CODE_META_KEY]: result.error.code } };
  }
  if (result.truncated) {
    const { handle, text, totalChars, maxChars } = result.truncated;
    const _meta = { [TRUNCATED_META_KEY]: { ...(handle === undefined ? {} : { handle, uri: resultUri(handle) }), totalChars, maxChars } };
    return { content: [{ type: "text", text }], ...(isPlainObject(result.value) ? { structuredContent: result.value } : {}), _meta };
  }
  const blocks = contentBlocks(result.content);
  const content = blocks ?? [{ type: "text", text: asText(result.value) }];
  const output = blocks === undefined && isPlainObject(result.content) ? { _meta: { [OUTPUT_META_KEY]: result.content } } : {};
  return isPlainObject(result.value) ? { content, structuredContent: result.value, ...output } : { content, ...output };
}

/**
 * A registry tool as MCP lists it. MCP requires an object `outputSchema`; another kind is left out
 * (the value still arrives as text).
 */
export function toMcpTool(tool: ToolInfo): Tool {
  const outputIsObject = tool.outputSchema !== undefined && tool.outputSchema.type === "object";
  return {
    name: tool.name,
    ...(tool.annotations?.title === undefined ? {} : { title: tool.annotations.title }),
    description: tool.description,
    // MCP's default dialect is 2020-12; `listTools` already shows that, this keeps any ToolInfo honest.
    inputSchema: toDraft2020Schema(tool.inputSchema) as Tool["inputSchema"],
    ...(outputIsObject ? { outputSchema: toDraft2020Schema(tool.outputSchema!) as Tool["outputSchema"] } : {}),
    ...(tool.annotations === undefined ? {} : { annotations: tool.annotations }),
  };
}
