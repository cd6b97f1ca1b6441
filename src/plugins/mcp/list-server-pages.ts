/**
 * Every page of one kind of list (`prompts/list`, `resources/list`, `resources/templates/list`) from
 * every connected server that offers that capability. A server whose listing fails is logged and
 * contributes what was found before the failure; the others are unaffected.
 */
import type { z } from "zod";
import type { Logger } from "../../core/plugin-contract.js";
import { requestWithRetry } from "./request-with-retry.js";
import type { ServerConnection } from "./server-connection.js";
import { requestBudget, type ResourceRequestOptions } from "./request-budget.js";

/**
 * The fields of `fields` that are defined: a listed item carries the optional keys its server sent, and no others.
 *
 * @example
 * definedFields({ title: "Docs", description: undefined }); // { title: "Docs" }
 */
export function definedFields<Fields extends Record<string, unknown>>(fields: Fields): { [Key in keyof Fields]?: Exclude<Fields[Key], undefined> } {
  const defined: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) defined[key] = value;
  return defined as { [Key in keyof Fields]?: Exclude<Fields[Key], undefined> };
}

export interface PagedList<Page, Item> {
  method: "prompts/list" | "resources/list" | "resources/templates/list";
  /** The server capability that offers the list. */
  capability: "prompts" | "resources";
  /** What the list holds, for the warning: "prompts", "resources", "resource templates". */
  noun: string;
  schema: z.ZodType<Page>;
  /** The page's items, as toolexec names them for `server`. */
  items(page: Page, server: string): Item[];
  /** The next page's cursor, if any. */
  nextCursor(page: Page): string | undefined;
  /** Read only the first page (lists that are always short). */
  firstPageOnly?: boolean;
}

async function listOneServer<Page, Item>(connection: ServerConnection, logger: Logger, options: ResourceRequestOptions, list: PagedList<Page, Item>): Promise<Item[]> {
  const server = connection.entry.name;
  const { deadline, signal, timeoutMs, done } = requestBudget(connection, options);
  const found: Item[] = [];
  let cursor: string | undefined;
  try {
    do {
      const params = cursor === undefined ? {} : { params: { cursor } };
      const page = await requestWithRetry(
        connection,
        (session) =>
          session.client.getServerCapabilities()?.[list.capability]
            ? session.request({ method: list.method, ...params }, list.schema, { signal, timeoutMs: timeoutMs + 1_000 })
            : Promise.resolve({ ok: true as const, value: undefined }),
        { deadline, signal, repeatable: true, what: list.method },
      );
      if (!page.ok) {
        logger.warn(`MCP server "${server}": listing its ${list.noun} failed: ${page.failure.message}`);
        return found;
      }
      // A server without the capability has nothing to list.
      if (page.value === undefined) return found;
      found.push(...list.items(page.value as Page, server));
      cursor = list.firstPageOnly ? undefined : list.nextCursor(page.value as Page);
    } while (cursor !== undefined);
    return found;
  } finally {
    done();
  }
}

/**
 * @example
 * const prompts = await listServerPages(connections, logger, {}, promptList);
 */
export async function listServerPages<Page, Item>(connections: ServerConnection[], logger: Logger, options: ResourceRequestOptions, list: PagedList<Page, Item>): Promise<Item[]> {
  const connected = connections.filter((connection) => connection.info().state === "connected");
  return (await Promise.all(connected.map((connection) => listOneServer(connection, logger, options, list)))).flat();
}
