/**
 * Resource subscriptions to MCP servers, shared by every subscriber: the first subscriber of a URI
 * sends `resources/subscribe`, the last to leave sends `resources/unsubscribe`, each
 * `notifications/resources/updated` reaches that URI's subscribers, and a server that reconnected
 * is subscribed again to every URI still wanted (a new session starts with none).
 */
import { EmptyResultSchema } from "@modelcontextprotocol/sdk/types.js";
import type { Logger, ToolErrorInfo } from "../../core/plugin-contract.js";
import { toolError } from "../../core/tool-result.js";
import type { ResourceRequestOptions } from "./request-budget.js";
import type { ServerConnection } from "./server-connection.js";
import { requestServer } from "./server-request.js";

/** Called when the server says the resource changed; read it again to see how. */
export type ResourceUpdateListener = (update: { uri: string; title?: string }) => void;

/** What `subscribeResource` resolves to: the undo function, or why the server refused. */
export type SubscribeResourceResult = { ok: true; unsubscribe(): Promise<void> } | { ok: false; error: ToolErrorInfo };

export interface ResourceSubscriptions {
  subscribe(connection: ServerConnection, uri: string, listener: ResourceUpdateListener, options?: ResourceRequestOptions): Promise<SubscribeResourceResult>;
}

async function send(connection: ServerConnection, method: "resources/subscribe" | "resources/unsubscribe", uri: string, options: ResourceRequestOptions): Promise<{ ok: true } | { ok: false; error: ToolErrorInfo }> {
  const capabilities = connection.liveSession()?.client.getServerCapabilities();
  if (capabilities && !capabilities.resources?.subscribe) {
    return toolError("INVALID_INPUT", `Server "${connection.entry.name}" does not offer resource subscriptions`, { server: connection.entry.name, uri });
  }
  const sent = await requestServer(connection, method, { uri }, EmptyResultSchema, options, { uri });
  return sent.ok ? { ok: true } : sent;
}

/**
 * @example
 * const subscriptions = createResourceSubscriptions(logger);
 * const subscribed = await subscriptions.subscribe(connection, "test://watched", ({ uri }) => reread(uri));
 * if (subscribed.ok) await subscribed.unsubscribe();
 */
export function createResourceSubscriptions(logger: Logger): ResourceSubscriptions {
  /** Per server, the listeners of each URI; the connection's own close drops its listeners. */
  const servers = new WeakMap<ServerConnection, Map<string, Set<ResourceUpdateListener>>>();

  const of = (connection: ServerConnection): Map<string, Set<ResourceUpdateListener>> => {
    let byUri = servers.get(connection);
    if (byUri) return byUri;
    byUri = new Map();
    const wanted = byUri;
    connection.onResourceUpdated((update) => {
      for (const listener of [...(wanted.get(update.uri) ?? [])]) listener(update);
    });
    connection.onConnected(() => {
      for (const uri of wanted.keys()) {
        void send(connection, "resources/subscribe", uri, {}).then((sent) => {
          if (!sent.ok) logger.warn(`MCP server "${connection.entry.name}": subscribing again to ${uri} after a reconnection failed: ${sent.error.message}`);
        });
      }
    });
    servers.set(connection, byUri);
    return byUri;
  };

  return {
    async subscribe(connection, uri, listener, options = {}) {
      const byUri = of(connection);
      let listeners = byUri.get(uri);
      if (!listeners) {
        const sent = await send(connection, "resources/subscribe", uri, options);
        if (!sent.ok) return sent;
        // Another subscriber may have come in while the request was under way.
        listeners = byUri.get(uri) ?? new Set();
        byUri.set(uri, listeners);
      }
      listeners.add(listener);
      // A subscribed server must stay up to send its updates: it is in use until unsubscribed.
      const release = connection.hold();
      let subscribed = true;
      return {
        ok: true,
        async unsubscribe() {
          if (!subscribed) return;
          subscribed = false;
          release();
          listeners!.delete(listener);
          if (listeners!.size > 0 || byUri.get(uri) !== listeners) return;
          byUri.delete(uri);
          const sent = await send(connection, "resources/unsubscribe", uri, {});
          if (!sent.ok) logger.debug(`MCP server "${connection.entry.name}": unsubscribing from ${uri} failed: ${sent.error.message}`);
        },
      };
    },
  };
}
