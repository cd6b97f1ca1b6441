/** Prompts of MCP servers: listed across connected servers, fetched from one (what `toolexec serve` passes through). */
import { GetPromptResultSchema, ListPromptsResultSchema, type GetPromptResult } from "@modelcontextprotocol/sdk/types.js";
import type { Logger, ToolErrorInfo } from "../../core/plugin-contract.js";
import { toolError } from "../../core/tool-result.js";
import { requestWithRetry } from "./request-with-retry.js";
import type { ServerConnection } from "./server-connection.js";
import { requestBudget, type ResourceRequestOptions } from "./server-resources.js";

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

/** Every page of one server's prompts; what was found so far (and a warning) when listing fails. */
async function listOneServer(connection: ServerConnection, logger: Logger, options: ResourceRequestOptions): Promise<McpPromptInfo[]> {
  const server = connection.entry.name;
  const { deadline, signal, timeoutMs, done } = requestBudget(connection, options);
  const found: McpPromptInfo[] = [];
  let cursor: string | undefined;
  try {
    do {
      const params = cursor === undefined ? {} : { params: { cursor } };
      const page = await requestWithRetry(
        connection,
        (session) =>
          session.client.getServerCapabilities()?.prompts
            ? session.request({ method: "prompts/list", ...params }, ListPromptsResultSchema, { signal, timeoutMs: timeoutMs + 1_000 })
            : Promise.resolve({ ok: true as const, value: { prompts: [] } }),
        { deadline, signal, repeatable: true, what: "prompts/list" },
      );
      if (!page.ok) {
        logger.warn(`MCP server "${server}": listing its prompts failed: ${page.failure.message}`);
        return found;
      }
      for (const { name, title, description, arguments: args } of page.value.prompts) {
        found.push({ server, name, ...(title === undefined ? {} : { title }), ...(description === undefined ? {} : { description }), ...(args === undefined ? {} : { arguments: args }) });
      }
      cursor = "nextCursor" in page.value ? page.value.nextCursor : undefined;
    } while (cursor !== undefined);
    return found;
  } finally {
    done();
  }
}

/** The prompts of every connected server that offers prompts; a server that fails is logged and left out. */
export async function listServerPrompts(connections: ServerConnection[], logger: Logger, options: ResourceRequestOptions = {}): Promise<McpPromptInfo[]> {
  const connected = connections.filter((connection) => connection.info().state === "connected");
  return (await Promise.all(connected.map((connection) => listOneServer(connection, logger, options)))).flat();
}

/** Fetch one prompt of one server with its arguments (reconnecting if needed: a prompt has no side effects). */
export async function getServerPrompt(connection: ServerConnection, name: string, args: Record<string, string>, options: ResourceRequestOptions = {}): Promise<GetPromptOutcome> {
  const { deadline, signal, timeoutMs, done } = requestBudget(connection, options);
  const outcome = await requestWithRetry(
    connection,
    (session) => session.request({ method: "prompts/get", params: { name, arguments: args } }, GetPromptResultSchema, { signal, timeoutMs: timeoutMs + 1_000 }),
    { deadline, signal, repeatable: true, what: `prompts/get ${name}` },
  ).finally(done);
  if (!outcome.ok) return toolError(outcome.failure.code ?? "SERVICE_UNAVAILABLE", outcome.failure.message, { server: connection.entry.name, prompt: name, ...outcome.failure.details });
  const { description, messages } = outcome.value;
  return { ok: true, ...(description === undefined ? {} : { description }), messages };
}
