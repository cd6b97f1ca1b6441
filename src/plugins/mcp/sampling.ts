/**
 * Servers asking for a model's completion mid-call (MCP sampling, `sampling/createMessage`). A
 * request goes to the caller of the call under way when it can sample (an MCP client served by
 * `toolexec/serve` that declared sampling), else to the host's `onSampling`. Without `onSampling`
 * toolexec declares no sampling capability, so servers do not ask.
 */
import { CreateMessageRequestSchema, type CreateMessageRequest, type CreateMessageResult } from "@modelcontextprotocol/sdk/types.js";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallerInfo } from "../../core/plugin-contract.js";

/** What a server asks for: MCP's `sampling/createMessage` params (messages, maxTokens, systemPrompt, ...). */
export interface SamplingRequest {
  /** The server asking, as named in mcp.json. */
  server: string;
  params: CreateMessageRequest["params"];
  /** Aborts when the server withdraws the request or the connection closes. */
  signal: AbortSignal;
}

/**
 * The host's model for servers' sampling requests; resolves to MCP's result.
 *
 * @example
 * const executor = await createExecutor({
 *   onSampling: async ({ params }) => ({ role: "assistant", content: { type: "text", text: await complete(params.messages) }, model: "my-model" }),
 * });
 */
export type SamplingHandler = (request: SamplingRequest) => CreateMessageResult | Promise<CreateMessageResult>;

/** The client capability to declare when a host answers sampling requests. */
export const SAMPLING_CAPABILITY = { sampling: {} } as const;

/** Route a client's sampling requests to the caller of the call under way, else to `handler`. */
export function handleSampling(client: Client, server: string, handler: SamplingHandler, currentCaller: () => CallerInfo | undefined): void {
  const answer = samplingAnswerer(server, handler, currentCaller);
  client.setRequestHandler(CreateMessageRequestSchema, (request, extra) => answer(request.params, extra.signal));
}

/** A sampling request's answer: from the caller of the call under way, else from `handler`. Shared by both protocol eras. */
export function samplingAnswerer(server: string, handler: SamplingHandler, currentCaller: () => CallerInfo | undefined) {
  return async (params: CreateMessageRequest["params"], signal: AbortSignal): Promise<CreateMessageResult> => {
    const caller = currentCaller();
    if (caller?.createMessage) return (await caller.createMessage(params as Record<string, unknown>, { signal })) as CreateMessageResult;
    return handler({ server, params, signal });
  };
}
