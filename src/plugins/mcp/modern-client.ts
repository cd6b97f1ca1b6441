/**
 * The session's client for an upstream server that speaks only protocol 2026-07-28: the SDK v2
 * `Client`, pinned to that revision, on the same transports and watchers as the 2025 client (so
 * respawn, re-initialization, deadlines and the no-double-run rules hold alike). A server's
 * `inputRequired` (elicitation, sampling) is fulfilled through the same answerers as a 2025
 * server's requests, and its tool-list changes arrive on the `subscriptions/listen` stream the
 * client opens. Loaded only when a server turned out to be 2026-only (protocol-era.ts).
 */
import { Client } from "@modelcontextprotocol/client";
import { MODERN_PROTOCOL_VERSION } from "./protocol-era.js";
import type { CallerInfo } from "../../core/plugin-contract.js";
import type { McpServerEntry } from "./config/resolve-mcp-server.js";
import { elicitationAnswerer, ELICITATION_CAPABILITY, type ElicitationHandler } from "./elicitation.js";
import { samplingAnswerer, SAMPLING_CAPABILITY, type SamplingHandler } from "./sampling.js";

export interface ModernClientOptions {
  entry: McpServerEntry;
  clientInfo: { name: string; version: string };
  onElicitation?: ElicitationHandler;
  onSampling?: SamplingHandler;
  currentCaller(): CallerInfo | undefined;
  onToolsListChanged(): void;
  onResourceUpdated(update: { uri: string; title?: string }): void;
  onLogMessage(params: { level: string; logger?: string; data: unknown }): void;
}

/**
 * @example
 * const client = createModernClient({ entry, clientInfo: CLIENT_INFO, currentCaller, onToolsListChanged, onResourceUpdated, onLogMessage });
 * await client.connect(transport);
 */
export function createModernClient(options: ModernClientOptions): Client {
  const { entry } = options;
  const client = new Client(options.clientInfo, {
    capabilities: { ...(options.onElicitation ? ELICITATION_CAPABILITY : {}), ...(options.onSampling ? SAMPLING_CAPABILITY : {}) },
    versionNegotiation: { mode: { pin: MODERN_PROTOCOL_VERSION } },
    // The tool-list cache refetches on its own: the client only says that the list changed.
    listChanged: { tools: { autoRefresh: false, debounceMs: 0, onChanged: () => options.onToolsListChanged() } },
  });
  client.setNotificationHandler("notifications/resources/updated", ({ params }) => options.onResourceUpdated(params));
  client.setNotificationHandler("notifications/message", ({ params }) => options.onLogMessage(params));
  if (options.onElicitation) {
    const answer = elicitationAnswerer(entry.name, options.onElicitation, options.currentCaller);
    client.setRequestHandler("elicitation/create", (request, context) => answer(request.params as Record<string, unknown>, context.mcpReq.signal) as never);
  }
  if (options.onSampling) {
    const answer = samplingAnswerer(entry.name, options.onSampling, options.currentCaller);
    client.setRequestHandler("sampling/createMessage", (request, context) => answer(request.params as never, context.mcpReq.signal) as never);
  }
  return client;
}

/** The SDK v2 Streamable HTTP transport (per-request streams, no session), for create-transport.ts. */
export { StreamableHTTPClientTransport as ModernHttpClientTransport } from "@modelcontextprotocol/client";
