/**
 * A JSON-RPC error for a served request. Not the SDK's `McpError`: its message already starts with
 * "MCP error <code>:", which the client's `McpError` then adds again.
 */

/** MCP's "resource not found". */
export const RESOURCE_NOT_FOUND = -32002;

/**
 * @example
 * throw protocolError(RESOURCE_NOT_FOUND, "No resource with URI test://x");
 * // the client sees { code: -32002, message: "No resource with URI test://x" }
 */
export function protocolError(code: number, message: string): Error & { code: number } {
  return Object.assign(new Error(message), { code });
}
