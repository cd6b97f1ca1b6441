/**
 * A served request goes straight to the SDK server's request handling, and a plain `tools/call`
 * straight to our handler. The SDK 1.x Protocol sorts every incoming message by trying it as a
 * result, then as an error, then as a request, each a zod parse: for a request the first two fail,
 * and each failure builds a ZodError with a stack (~15 µs of CPU per call). Its `tools/call` path
 * then parses the request twice more and the result once (another ~10 µs, more in garbage). A
 * message the strict request schema would take as it is skips the sorting; a `tools/call` whose
 * params the schema would pass unchanged skips the two request parses; a result that is plainly
 * valid (our text blocks, `structuredContent`, `_meta`) skips the result parse, and any other is
 * parsed as the SDK does, failing with its `Invalid tools/call result` error. Everything else, and
 * everything on an SDK without these internals, takes the SDK's own path.
 */
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { CallToolResultSchema, ErrorCode, McpError, type CallToolRequest, type CallToolResult, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { ServedMcpServer } from "./create-mcp-server.js";

/** The key of task metadata in `_meta`, which the schema types (`{ taskId }`). */
const RELATED_TASK_META_KEY = "io.modelcontextprotocol/related-task";

type RequestHandling = (request: JSONRPCMessage, extra?: unknown) => void;
type RequestHandler = (request: { params?: unknown }, extra: unknown) => Promise<unknown>;
/** The SDK 1.x Protocol's internals this module uses; absent, it leaves the SDK's path alone. */
interface ProtocolInternals {
  _onrequest?: RequestHandling;
  _requestHandlers?: Map<string, RequestHandler>;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const isRequestId = (id: unknown) => typeof id === "string" || Number.isSafeInteger(id);
const hasOnlyKeys = (value: Record<string, unknown>, keys: readonly string[]) => {
  for (const key in value) if (!keys.includes(key)) return false;
  return true;
};

/** A `_meta` the schema passes unchanged: a progress token of the right type, no task. */
function isPlainMeta(meta: unknown): boolean {
  if (!isPlainObject(meta) || RELATED_TASK_META_KEY in meta) return false;
  return meta.progressToken === undefined || isRequestId(meta.progressToken);
}

const REQUEST_KEYS = ["jsonrpc", "id", "method", "params"] as const;

/** Whether the SDK's strict `JSONRPCRequestSchema` takes `message` as it is. */
export function isPlainRequest(message: Record<string, unknown>): boolean {
  if (!hasOnlyKeys(message, REQUEST_KEYS) || message.jsonrpc !== "2.0" || typeof message.method !== "string" || !isRequestId(message.id)) return false;
  if (!("params" in message)) return true;
  const { params } = message;
  return isPlainObject(params) && (!("_meta" in params) || isPlainMeta(params._meta));
}

const CALL_KEYS = ["name", "arguments", "_meta"] as const;

/** `tools/call` params `CallToolRequestSchema` passes unchanged (no task, nothing it would strip). */
export function isPlainCallParams(params: unknown): boolean {
  if (!isPlainObject(params) || !hasOnlyKeys(params, CALL_KEYS) || typeof params.name !== "string") return false;
  return (params.arguments === undefined || isPlainObject(params.arguments)) && (!("_meta" in params) || isPlainMeta(params._meta));
}

/** A result `CallToolResultSchema` passes unchanged: text blocks of `type` and `text` only. */
export function isPlainCallResult(result: CallToolResult): boolean {
  if (!isPlainObject(result) || !Array.isArray(result.content)) return false;
  for (const block of result.content) if (!isPlainObject(block) || block.type !== "text" || typeof block.text !== "string" || !hasOnlyKeys(block, ["type", "text"])) return false;
  if (result.structuredContent !== undefined && !isPlainObject(result.structuredContent)) return false;
  if (result.isError !== undefined && typeof result.isError !== "boolean") return false;
  return !("_meta" in result) || isPlainMeta(result._meta);
}

/** As the SDK's `tools/call` wrapper checks a result, for those that are not plainly valid. */
function checkedResult(result: CallToolResult): CallToolResult {
  if (isPlainCallResult(result)) return result;
  const parsed = CallToolResultSchema.safeParse(result);
  if (!parsed.success) throw new McpError(ErrorCode.InvalidParams, `Invalid tools/call result: ${parsed.error.message}`);
  return parsed.data;
}

/**
 * Call right after `server.connect(transport)` (which installs the SDK's `onmessage`). Returns
 * whether requests now go straight to the server.
 *
 * @example
 * void served.server.connect(transport);
 * dispatchRequestsDirectly(served, transport);
 */
export function dispatchRequestsDirectly(served: ServedMcpServer, transport: Transport): boolean {
  const { server } = served;
  const internals = server as unknown as ProtocolInternals;
  const handleRequest = internals._onrequest;
  const viaProtocol = transport.onmessage;
  const sdkCall = internals._requestHandlers?.get("tools/call");
  if (typeof handleRequest !== "function" || viaProtocol === undefined || sdkCall === undefined) return false;
  internals._requestHandlers!.set("tools/call", (request, extra) => {
    if (!isPlainCallParams(request.params)) return sdkCall(request, extra);
    return served.callTool(request as CallToolRequest, extra as Parameters<ServedMcpServer["callTool"]>[1]).then(checkedResult);
  });
  transport.onmessage = (message, extra) => {
    if (isPlainRequest(message as Record<string, unknown>)) handleRequest.call(server, message, extra);
    else viaProtocol(message, extra);
  };
  return true;
}
