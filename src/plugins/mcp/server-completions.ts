/**
 * Argument completions of MCP servers (`completion/complete`): the values a server suggests for one
 * argument of one of its prompts or resource templates, as a person types it.
 */
import { CompleteResultSchema, type CompleteRequest } from "@modelcontextprotocol/sdk/types.js";
import type { ToolErrorInfo } from "../../core/plugin-contract.js";
import type { ResourceRequestOptions } from "./request-budget.js";
import type { ServerConnection } from "./server-connection.js";
import { requestServer } from "./server-request.js";

/** What to complete: MCP's `completion/complete` params (`ref` to a prompt or a resource template, the `argument`, and `context`). */
export type CompletionRequest = CompleteRequest["params"];

/** The server's suggestions, `{ values, total?, hasMore? }`, or why there are none. */
export type CompleteOutcome = { ok: true; completion: { values: string[]; total?: number; hasMore?: boolean } } | { ok: false; error: ToolErrorInfo };

/** Ask one server for completions; a server that offers none (no `completions` capability) answers an empty list. */
export async function completeServerArgument(connection: ServerConnection, request: CompletionRequest, options: ResourceRequestOptions = {}): Promise<CompleteOutcome> {
  const capabilities = connection.liveSession()?.client.getServerCapabilities();
  if (capabilities && !capabilities.completions) return { ok: true, completion: { values: [] } };
  const reference: Record<string, string> = request.ref.type === "ref/prompt" ? { prompt: request.ref.name } : { uri: request.ref.uri };
  const completed = await requestServer(connection, "completion/complete", request, CompleteResultSchema, options, { ...reference, argument: request.argument.name });
  return completed.ok ? { ok: true, completion: completed.value.completion } : completed;
}
