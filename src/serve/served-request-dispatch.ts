/**
 * A served request goes straight to the SDK server's request handling. The SDK 1.x Protocol sorts
 * every incoming message by trying it as a result, then as an error, then as a request, each a zod
 * parse: for a request the first two fail, and each failure builds a ZodError with a stack — ~15 µs
 * of CPU per call, the largest part of the SDK's own cost on the served path. A message that is
 * plainly a request (the strict request schema would take it as it is) skips that sorting; every
 * other message, and every message on an SDK without `_onrequest`, takes the SDK's own path.
 */
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

/** The key of task metadata in `_meta`, which the schema types (`{ taskId }`). */
const RELATED_TASK_META_KEY = "io.modelcontextprotocol/related-task";

type RequestHandling = (this: Server, request: JSONRPCMessage, extra?: unknown) => void;

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const isRequestId = (id: unknown) => typeof id === "string" || Number.isSafeInteger(id);

/** `params._meta` as the schema passes it unchanged: a progress token of the right type, no task. */
function isPlainMeta(meta: unknown): boolean {
  if (!isPlainObject(meta) || RELATED_TASK_META_KEY in meta) return false;
  return meta.progressToken === undefined || isRequestId(meta.progressToken);
}

/** Whether the SDK's strict `JSONRPCRequestSchema` takes `message` as it is. */
export function isPlainRequest(message: Record<string, unknown>): boolean {
  for (const key in message) if (key !== "jsonrpc" && key !== "id" && key !== "method" && key !== "params") return false;
  if (message.jsonrpc !== "2.0" || typeof message.method !== "string" || !isRequestId(message.id)) return false;
  if (!("params" in message)) return true;
  const { params } = message;
  return isPlainObject(params) && (!("_meta" in params) || isPlainMeta(params._meta));
}

/**
 * Call right after `server.connect(transport)` (which installs the SDK's `onmessage`). Returns
 * whether requests now go straight to the server.
 *
 * @example
 * void server.connect(transport);
 * dispatchRequestsDirectly(server, transport);
 */
export function dispatchRequestsDirectly(server: Server, transport: Transport): boolean {
  const handleRequest = (server as unknown as { _onrequest?: RequestHandling })._onrequest;
  const viaProtocol = transport.onmessage;
  if (typeof handleRequest !== "function" || viaProtocol === undefined) return false;
  transport.onmessage = (message, extra) => {
    if (isPlainRequest(message as Record<string, unknown>)) handleRequest.call(server, message, extra);
    else viaProtocol(message, extra);
  };
  return true;
}
