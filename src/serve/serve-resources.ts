/**
 * Upstream MCP servers' resources, served: listed across connected servers, templates included, and
 * read from the server that lists the URI, or else from the first whose URI template matches it.
 * `resources/subscribe` goes to that same server, and its `notifications/resources/updated` come
 * back to each session subscribed to the URI, until it unsubscribes or closes.
 */
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { protocolError, RESOURCE_NOT_FOUND } from "./protocol-error.js";
import type { CallerInfo, Executor } from "../index.js";
import { readServedResult, RESULT_RESOURCE_TEMPLATE, RESULT_URI_PREFIX } from "./served-results.js";

/**
 * Does `uri` fit `template`? A simple expression (`{id}`) stands for one path segment, an operator
 * one (`{+path}`, `{/rest}`, ...) for anything: enough to route a read, which the owner then checks.
 *
 * @example
 * matchesUriTemplate("test://template/{id}/data", "test://template/123/data"); // true
 */
export function matchesUriTemplate(template: string, uri: string): boolean {
  let pattern = "";
  for (const part of template.split(/(\{[^}]*\})/)) {
    if (part.startsWith("{") && part.endsWith("}")) pattern += /^\{[A-Za-z0-9_.%,]+\}$/.test(part) ? "[^/?#]+" : ".*";
    else pattern += part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${pattern}$`).test(uri);
}

/** The server to read `uri` from: the one listing it, else the first with a matching template. */
async function ownerOf(executor: Executor, uri: string): Promise<string | undefined> {
  const listed = (await executor.listResources()).find((resource) => resource.uri === uri);
  if (listed) return listed.server;
  return (await executor.listResourceTemplates()).find((template) => matchesUriTemplate(template.uriTemplate, uri))?.server;
}

/**
 * @example
 * const resources = registerResourceHandlers(server, executor, () => ({ sessionId })); // before server.connect(transport)
 * await resources.close(); // ends the session's subscriptions
 */
export function registerResourceHandlers(server: Server, executor: Executor, callerOf: (sessionId: string | undefined) => CallerInfo): { close(): Promise<void> } {
  /** This session's subscriptions: URI → its undo. */
  const subscribed = new Map<string, () => Promise<void>>();
  let closed = false;
  server.setRequestHandler(ListResourcesRequestSchema, () => listServedResources(executor));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => listServedResourceTemplates(executor));
  server.setRequestHandler(ReadResourceRequestSchema, (request, extra) => readServedResource(executor, request.params.uri, callerOf(extra.sessionId), extra.signal) as never);
  server.setRequestHandler(SubscribeRequestSchema, async (request, extra) => {
    const { uri } = request.params;
    if (subscribed.has(uri)) return {};
    const owner = await ownerOf(executor, uri);
    if (!owner) throw protocolError(RESOURCE_NOT_FOUND, `No resource with URI ${uri}`);
    const subscription = await executor.subscribeResource(owner, uri, (update) => void server.sendResourceUpdated(update).catch(() => undefined), { signal: extra.signal });
    if (!subscription.ok) throw protocolError(ErrorCode.InternalError, `${subscription.error.code}: ${subscription.error.message}`);
    // Two subscribes of one URI racing: the second keeps the first's. A session closed meanwhile keeps none.
    if (subscribed.has(uri) || closed) await subscription.unsubscribe();
    else subscribed.set(uri, subscription.unsubscribe);
    return {};
  });
  server.setRequestHandler(UnsubscribeRequestSchema, async (request) => {
    const unsubscribe = subscribed.get(request.params.uri);
    subscribed.delete(request.params.uri);
    await unsubscribe?.();
    return {};
  });
  return {
    async close() {
      closed = true;
      const all = [...subscribed.values()];
      subscribed.clear();
      await Promise.allSettled(all.map((unsubscribe) => unsubscribe()));
    },
  };
}

/** Upstream servers' resources as `resources/list` answers them. */
export async function listServedResources(executor: Executor) {
  return { resources: (await executor.listResources()).map(({ server: _server, ...resource }) => resource) };
}

/** Upstream servers' resource templates, and the served results' own, as `resources/templates/list` answers them. */
export async function listServedResourceTemplates(executor: Executor) {
  return { resourceTemplates: [RESULT_RESOURCE_TEMPLATE, ...(await executor.listResourceTemplates()).map(({ server: _server, ...template }) => template)] };
}

/** `resources/read`: a served result's rest, or the resource from the server that owns `uri`. */
export async function readServedResource(executor: Executor, uri: string, caller: CallerInfo, signal: AbortSignal) {
  if (uri.startsWith(RESULT_URI_PREFIX)) return readServedResult(executor, uri, caller, signal);
  const owner = await ownerOf(executor, uri);
  if (!owner) throw protocolError(RESOURCE_NOT_FOUND, `No resource with URI ${uri}`);
  const read = await executor.readResource(owner, uri, { signal });
  if (!read.ok) throw protocolError(ErrorCode.InternalError, `${read.error.code}: ${read.error.message}`);
  return { contents: read.contents };
}
