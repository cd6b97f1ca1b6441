/**
 * Servers asking the user something mid-call (MCP elicitation). A request goes to the caller of the
 * call under way when it can elicit (an MCP client served by `toolexec/serve`: see caller-routes.ts),
 * else to the host's `onElicitation`; without one, toolexec tells servers it cannot elicit, so they
 * do not ask.
 */
import { ElicitRequestSchema, type ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallerInfo, JsonSchema } from "../../core/plugin-contract.js";

/** What a server asks: a form to fill (`requestedSchema`) or a URL to open. */
export interface ElicitationRequest {
  /** The server asking, as named in mcp.json. */
  server: string;
  mode: "form" | "url";
  /** What to ask, written by the server for a person. */
  message: string;
  /** form: a flat object schema of the fields wanted (strings, numbers, booleans, enums). */
  requestedSchema?: JsonSchema;
  /** url: the page the person should open. */
  url?: string;
  elicitationId?: string;
  /** Aborts when the server withdraws the request or the connection closes. */
  signal: AbortSignal;
}

/** The person's answer. Fields left out of `content` get the schema's defaults. */
export type ElicitationResponse =
  | { action: "accept"; content?: Record<string, string | number | boolean | string[]> }
  | { action: "decline" }
  | { action: "cancel" };

/**
 * The host's answerer for elicitation requests.
 *
 * @example
 * const executor = await createExecutor({
 *   onElicitation: async ({ message, requestedSchema }) => ({ action: "accept", content: await showForm(message, requestedSchema) }),
 * });
 */
export type ElicitationHandler = (request: ElicitationRequest) => ElicitationResponse | Promise<ElicitationResponse>;

/** The client capability to declare: form (with schema defaults applied for the host) and URL modes. */
export const ELICITATION_CAPABILITY = { elicitation: { form: { applyDefaults: true }, url: {} } } as const;

/** Route a client's elicitation requests to the caller of the call under way, else to `handler`. */
export function handleElicitation(client: Client, server: string, handler: ElicitationHandler, currentCaller: () => CallerInfo | undefined): void {
  const answer = elicitationAnswerer(server, handler, currentCaller);
  client.setRequestHandler(ElicitRequestSchema, (request, extra) => answer(request.params as Record<string, unknown>, extra.signal));
}

/**
 * An elicitation's answer: from the caller of the call under way, else from `handler`. Shared by
 * both protocol eras (a 2026-07-28 server's embedded `inputRequired` elicitation comes here too).
 */
export function elicitationAnswerer(server: string, handler: ElicitationHandler, currentCaller: () => CallerInfo | undefined) {
  return async (request: Record<string, unknown>, signal: AbortSignal): Promise<ElicitResult> => {
    const caller = currentCaller();
    if (caller?.elicit) return (await caller.elicit(request, { signal })) as ElicitResult;
    const params = request as { mode?: "form" | "url"; message: string; requestedSchema?: JsonSchema; url?: string; elicitationId?: string };
    const answer = await handler({
      server,
      mode: params.mode ?? "form",
      message: params.message,
      ...(params.requestedSchema === undefined ? {} : { requestedSchema: params.requestedSchema }),
      ...(params.url === undefined ? {} : { url: params.url }),
      ...(params.elicitationId === undefined ? {} : { elicitationId: params.elicitationId }),
      signal,
    });
    return answer.action === "accept" ? { action: "accept", content: answer.content ?? {} } : { action: answer.action };
  };
}
