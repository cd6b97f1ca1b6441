/**
 * Upstream MCP servers' prompts, served: `prompts/list` across connected servers and `prompts/get`
 * routed to the owner. Names follow the tools' rule, so clients see one naming scheme:
 * `server__prompt`, or the prompt's own name for a server with `"prefix": false`.
 */
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { ErrorCode, GetPromptRequestSchema, ListPromptsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { protocolError } from "./protocol-error.js";
import type { Executor } from "../index.js";
import type { McpPromptInfo } from "../mcp.js";

const SEPARATOR = "__";

/** Each served prompt name with the prompt it stands for; the first of two same names is kept. */
export async function servedPrompts(executor: Executor): Promise<Map<string, McpPromptInfo>> {
  const unprefixed = new Set(executor.servers().filter((server) => server.prefix === false).map((server) => server.name));
  const served = new Map<string, McpPromptInfo>();
  for (const prompt of await executor.listPrompts()) {
    const name = unprefixed.has(prompt.server) ? prompt.name : `${prompt.server}${SEPARATOR}${prompt.name}`;
    if (!served.has(name)) served.set(name, prompt);
  }
  return served;
}

/**
 * @example
 * registerPromptHandlers(server, executor); // before server.connect(transport)
 */
export function registerPromptHandlers(server: Server, executor: Executor): void {
  server.setRequestHandler(ListPromptsRequestSchema, () => listServedPrompts(executor));
  server.setRequestHandler(GetPromptRequestSchema, (request, extra) => getServedPrompt(executor, request.params, extra.signal));
}

/** The served prompts as `prompts/list` answers them. */
export async function listServedPrompts(executor: Executor) {
  return { prompts: [...(await servedPrompts(executor))].map(([name, { server: _server, name: _name, ...prompt }]) => ({ name, ...prompt })) };
}

/** `prompts/get` of a served prompt, from the server that owns it. */
export async function getServedPrompt(executor: Executor, params: { name: string; arguments?: Record<string, string> }, signal: AbortSignal) {
  const prompt = (await servedPrompts(executor)).get(params.name);
  if (!prompt) throw protocolError(ErrorCode.InvalidParams, `No prompt named "${params.name}"`);
  const got = await executor.getPrompt(prompt.server, prompt.name, params.arguments ?? {}, { signal });
  if (!got.ok) throw protocolError(ErrorCode.InternalError, `${got.error.code}: ${got.error.message}`);
  return { ...(got.description === undefined ? {} : { description: got.description }), messages: got.messages };
}
