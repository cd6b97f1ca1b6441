/** Resources of MCP servers: listed across connected servers, read from one. */
import { ListResourcesResultSchema, ListResourceTemplatesResultSchema, ReadResourceResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { ToolexecError } from "../../core/errors/toolexec-error.js";
import type { Logger, ToolErrorInfo } from "../../core/plugin-contract.js";
import { toolError } from "../../core/tool-result.js";
import { requestWithRetry } from "./request-with-retry.js";
import type { ServerConnection } from "./server-connection.js";
import type { McpResourceContent, McpResourceInfo, McpResourceTemplateInfo } from "./server-info.js";

/** Budget of a resource request when neither the call nor the server names one. */
export const DEFAULT_RESOURCE_TIMEOUT_MS = 30_000;

export interface ResourceRequestOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

/** What `readResource` resolves to; a fault of the read is a value, as for tool calls. */
export type ReadResourceResult = { ok: true; contents: McpResourceContent[] } | { ok: false; error: ToolErrorInfo };

/** The request's deadline and signal: the caller's signal, or `TIMEOUT` when the budget runs out. */
export function requestBudget(connection: ServerConnection, options: ResourceRequestOptions) {
  const timeoutMs = options.timeoutMs ?? connection.entry.timeoutMs ?? DEFAULT_RESOURCE_TIMEOUT_MS;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new ToolexecError("TIMEOUT", `Server "${connection.entry.name}" did not answer within ${timeoutMs} ms`)), timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, controller.signal]) : controller.signal;
  return { deadline: Date.now() + timeoutMs, signal, timeoutMs, done: () => clearTimeout(timer) };
}

/** Every page of one server's resources; what was found so far (and a warning) when listing fails. */
async function listOneServer(connection: ServerConnection, logger: Logger, options: ResourceRequestOptions): Promise<McpResourceInfo[]> {
  const server = connection.entry.name;
  const { deadline, signal, timeoutMs, done } = requestBudget(connection, options);
  const found: McpResourceInfo[] = [];
  let cursor: string | undefined;
  try {
    do {
      const params = cursor === undefined ? {} : { params: { cursor } };
      const page = await requestWithRetry(
        connection,
        (session) =>
          session.client.getServerCapabilities()?.resources
            ? session.request({ method: "resources/list", ...params }, ListResourcesResultSchema, { signal, timeoutMs: timeoutMs + 1_000 })
            : Promise.resolve({ ok: true as const, value: { resources: [] } }),
        { deadline, signal, repeatable: true, what: "resources/list" },
      );
      if (!page.ok) {
        logger.warn(`MCP server "${server}": listing its resources failed: ${page.failure.message}`);
        return found;
      }
      for (const { uri, name, title, description, mimeType } of page.value.resources) {
        found.push({ server, uri, name, ...(title === undefined ? {} : { title }), ...(description === undefined ? {} : { description }), ...(mimeType === undefined ? {} : { mimeType }) });
      }
      cursor = "nextCursor" in page.value ? page.value.nextCursor : undefined;
    } while (cursor !== undefined);
    return found;
  } finally {
    done();
  }
}

/** The resources of every connected server that offers resources; a server that fails is logged and left out. */
export async function listServerResources(connections: ServerConnection[], logger: Logger, options: ResourceRequestOptions = {}): Promise<McpResourceInfo[]> {
  const connected = connections.filter((connection) => connection.info().state === "connected");
  return (await Promise.all(connected.map((connection) => listOneServer(connection, logger, options)))).flat();
}

/** The resource templates of every connected server that offers resources (first page: templates are few); a server that fails is logged and left out. */
export async function listServerResourceTemplates(connections: ServerConnection[], logger: Logger, options: ResourceRequestOptions = {}): Promise<McpResourceTemplateInfo[]> {
  const connected = connections.filter((connection) => connection.info().state === "connected");
  const perServer = await Promise.all(
    connected.map(async (connection) => {
      const server = connection.entry.name;
      const { deadline, signal, timeoutMs, done } = requestBudget(connection, options);
      const page = await requestWithRetry(
        connection,
        (session) =>
          session.client.getServerCapabilities()?.resources
            ? session.request({ method: "resources/templates/list" }, ListResourceTemplatesResultSchema, { signal, timeoutMs: timeoutMs + 1_000 })
            : Promise.resolve({ ok: true as const, value: { resourceTemplates: [] } }),
        { deadline, signal, repeatable: true, what: "resources/templates/list" },
      ).finally(done);
      if (!page.ok) {
        logger.warn(`MCP server "${server}": listing its resource templates failed: ${page.failure.message}`);
        return [];
      }
      return page.value.resourceTemplates.map(({ uriTemplate, name, title, description, mimeType }) => ({
        server,
        uriTemplate,
        name,
        ...(title === undefined ? {} : { title }),
        ...(description === undefined ? {} : { description }),
        ...(mimeType === undefined ? {} : { mimeType }),
      }));
    }),
  );
  return perServer.flat();
}

/** Read one resource of one server (reconnecting if needed, like a read-only call). */
export async function readServerResource(connection: ServerConnection, uri: string, options: ResourceRequestOptions = {}): Promise<ReadResourceResult> {
  const { deadline, signal, timeoutMs, done } = requestBudget(connection, options);
  const outcome = await requestWithRetry(
    connection,
    (session) => session.request({ method: "resources/read", params: { uri } }, ReadResourceResultSchema, { signal, timeoutMs: timeoutMs + 1_000 }),
    { deadline, signal, repeatable: true, what: `resources/read ${uri}` },
  ).finally(done);
  if (!outcome.ok) return toolError(outcome.failure.code ?? "SERVICE_UNAVAILABLE", outcome.failure.message, { server: connection.entry.name, uri, ...outcome.failure.details });
  return { ok: true, contents: outcome.value.contents as McpResourceContent[] };
}
