/**
 * `completion/complete`, served: a completion for an argument of an upstream prompt (served as
 * `server__prompt` or under its own name) or resource template goes to the server that owns it,
 * under the name that server knows; anything else gets an empty list.
 */
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CompleteRequestSchema, ErrorCode, type CompleteRequest } from "@modelcontextprotocol/sdk/types.js";
import type { Executor } from "../index.js";
import { protocolError } from "./protocol-error.js";
import { servedPrompts } from "./serve-prompts.js";

const NONE = { completion: { values: [], hasMore: false } };

/** The server owning what `ref` names, and the `ref` as that server knows it. */
async function ownerOf(executor: Executor, ref: CompleteRequest["params"]["ref"]): Promise<{ server: string; ref: CompleteRequest["params"]["ref"] } | undefined> {
  if (ref.type === "ref/prompt") {
    const prompt = (await servedPrompts(executor)).get(ref.name);
    return prompt && { server: prompt.server, ref: { type: "ref/prompt", name: prompt.name } };
  }
  const template = (await executor.listResourceTemplates()).find((candidate) => candidate.uriTemplate === ref.uri);
  return template && { server: template.server, ref };
}

/**
 * @example
 * registerCompletionHandler(server, executor); // before server.connect(transport)
 */
export function registerCompletionHandler(server: Server, executor: Executor): void {
  server.setRequestHandler(CompleteRequestSchema, (request, extra) => completeServed(executor, request.params, extra.signal));
}

/** `completion/complete` answered by the server owning what `ref` names (an empty list for anything else). */
export async function completeServed(executor: Executor, request: CompleteRequest["params"], signal: AbortSignal) {
  const { _meta: _ignored, ...params } = request;
  const owner = await ownerOf(executor, params.ref);
  if (!owner) return NONE;
  const completed = await executor.complete(owner.server, { ...params, ref: owner.ref }, { signal });
  if (!completed.ok) throw protocolError(ErrorCode.InternalError, `${completed.error.code}: ${completed.error.message}`);
  return { completion: completed.completion };
}
