/** Resources of MCP servers: listed across connected servers, read from one. */
import { ListResourcesResultSchema, ListResourceTemplatesResultSchema, ReadResourceResultSchema } from "@modelcontextprotocol/sdk/types.js";
import type { Logger, ToolErrorInfo } from "../../core/plugin-contract.js";
import { definedFields, listServerPages } from "./list-server-pages.js";
import type { ResourceRequestOptions } from "./request-budget.js";
import { requestServer } from "./server-request.js";
import type { ServerConnection } from "./server-connection.js";
import type { McpResourceContent, McpResourceInfo, McpResourceTemplateInfo } from "./server-info.js";

export type { ResourceRequestOptions } from "./request-budget.js";

/** What `readResource` resolves to; a fault of the read is a value, as for tool calls. */
export type ReadResourceResult = { ok: true; contents: McpResourceContent[] } | { ok: false; error: ToolErrorInfo };

/** The resources of every connected server that offers resources; a server that fails is logged and left out. */
export function listServerResources(connections: ServerConnection[], logger: Logger, options: ResourceRequestOptions = {}): Promise<McpResourceInfo[]> {
  return listServerPages(connections, logger, options, {
    method: "resources/list",
    capability: "resources",
    noun: "resources",
    schema: ListResourcesResultSchema,
    items: (page, server) => page.resources.map(({ uri, name, title, description, mimeType }) => ({ server, uri, name, ...definedFields({ title, description, mimeType }) })),
    nextCursor: (page) => page.nextCursor,
  });
}

/** The resource templates of every connected server that offers resources (first page: templates are few); a server that fails is logged and left out. */
export function listServerResourceTemplates(connections: ServerConnection[], logger: Logger, options: ResourceRequestOptions = {}): Promise<McpResourceTemplateInfo[]> {
  return listServerPages(connections, logger, options, {
    method: "resources/templates/list",
    capability: "resources",
    noun: "resource templates",
    schema: ListResourceTemplatesResultSchema,
    items: (page, server) => page.resourceTemplates.map(({ uriTemplate, name, title, description, mimeType }) => ({ server, uriTemplate, name, ...definedFields({ title, description, mimeType }) })),
    nextCursor: () => undefined,
    firstPageOnly: true,
  });
}

/** Read one resource of one server (reconnecting if needed, like a read-only call). */
export async function readServerResource(connection: ServerConnection, uri: string, options: ResourceRequestOptions = {}): Promise<ReadResourceResult> {
  const read = await requestServer(connection, "resources/read", { uri }, ReadResourceResultSchema, options, { uri });
  return read.ok ? { ok: true, contents: read.value.contents as McpResourceContent[] } : read;
}
