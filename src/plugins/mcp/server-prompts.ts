/** Prompts of MCP servers: listed across connected servers, fetched from one (what `toolexec serve` passes through). */
import { GetPromptResultSchema, ListPromptsResultSchema, type GetPromptResult } from "@modelcontextprotocol/sdk/types.js";
import type { Logger, ToolErrorInfo } from "../../core/plugin-contract.js";
import { definedFields, listServerPages } from "./list-server-pages.js";
import type { ServerConnection } from "./server-connection.js";
import type { ResourceRequestOptions } from "./request-budget.js";
import { requestServer } from "./server-request.js";

/** A prompt one server offers, as its `prompts/list` describes it. */
export interface McpPromptInfo {
  server: string;
  name: string;
  title?: string;
  description?: string;
  arguments?: Array<{ name: string; description?: string; required?: boolean }>;
}

/** What `getPrompt` resolves to; a fault is a value, as for tool calls. */
export type GetPromptOutcome = { ok: true; description?: string; messages: GetPromptResult["messages"] } | { ok: false; error: ToolErrorInfo };

/** The prompts of every connected server that offers prompts; a server that fails is logged and left out. */
export function listServerPrompts(connections: ServerConnection[], logger: Logger, options: ResourceRequestOptions = {}): Promise<McpPromptInfo[]> {
  return listServerPages(connections, logger, options, {
    method: "prompts/list",
    capability: "prompts",
    noun: "prompts",
    schema: ListPromptsResultSchema,
    items: (page, server) => page.prompts.map(({ name, title, description, arguments: args }) => ({ server, name, ...definedFields({ title, description, arguments: args }) })),
    nextCursor: (page) => page.nextCursor,
  });
}

/** Fetch one prompt of one server with its arguments (reconnecting if needed: a prompt has no side effects). */
export async function getServerPrompt(connection: ServerConnection, name: string, args: Record<string, string>, options: ResourceRequestOptions = {}): Promise<GetPromptOutcome> {
  const got = await requestServer(connection, "prompts/get", { name, arguments: args }, GetPromptResultSchema, options, { prompt: name });
  if (!got.ok) return got;
  const { description, messages } = got.value;
  return { ok: true, ...(description === undefined ? {} : { description }), messages };
}
