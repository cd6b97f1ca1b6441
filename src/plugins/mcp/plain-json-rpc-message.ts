/**
 * Whether a parsed stdout line is, beyond doubt, a message the SDK's `JSONRPCMessageSchema` accepts
 * unchanged: a request, a notification or a result, with no `_meta` (whose fields the schema types).
 * Every answer and most server requests are such messages, and checking them by hand costs a few
 * property reads where the zod union (request, then notification, then result) cost ~5 µs and
 * built a copy and two failed parses' issues. Anything else (an error response, a `_meta`, a key the
 * strict schemas refuse) returns false and is left to the schema, so what passes and every error
 * message stay the schema's.
 */

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** The schema's request id: a string or a (safe) integer. */
const isRequestId = (id: unknown) => typeof id === "string" || Number.isSafeInteger(id);

/** `params` of a request or notification: absent, or an object the schema passes through as is. */
const isPlainParams = (message: Record<string, unknown>) => !("params" in message) || (isPlainObject(message.params) && !("_meta" in message.params));

/**
 * @example
 * const message = JSON.parse(line);
 * if (isPlainJsonRpcMessage(message) || JSONRPCMessageSchema.safeParse(message).success) deliver(message);
 */
export function isPlainJsonRpcMessage(message: Record<string, unknown>): boolean {
  // The SDK's message schemas are strict: any other key fails them.
  for (const key in message) if (key !== "jsonrpc" && key !== "id" && key !== "method" && key !== "params" && key !== "result") return false;
  if (message.jsonrpc !== "2.0") return false;
  if ("result" in message) return !("method" in message) && !("params" in message) && isRequestId(message.id) && isPlainObject(message.result) && !("_meta" in message.result);
  if (typeof message.method !== "string") return false;
  return (!("id" in message) || isRequestId(message.id)) && isPlainParams(message);
}
