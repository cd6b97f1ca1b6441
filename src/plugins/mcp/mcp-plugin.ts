/**
 * The `mcp` plugin: the servers of mcp.json (and those added at run time) as tools named
 * `server__tool`, over stdio, Streamable HTTP or legacy SSE, resilient where the raw SDK is not.
 */
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { mcpConfigSection } from "./config/mcp-config-section.js";
import type { McpServerEntry } from "./config/resolve-mcp-server.js";
import { PLUGIN_CONTRACT_VERSION, abortReasonCode, type ExecutorPlugin, type PluginCallOptions, type PluginContext, type PluginInstance, type PluginResult, type ToolCall, type ToolDefinition } from "../../core/plugin-contract.js";
import { ToolexecError } from "../../core/errors/toolexec-error.js";
import { toolError } from "../../core/tool-result.js";
import type { AuthorizationHandler } from "./auth/server-authorization.js";
import { createFileTokenStore, type OAuthTokenStore } from "./auth/token-store.js";
import type { ElicitationHandler } from "./elicitation.js";
import { createServerLogins, type ServerLogins } from "./server-logins.js";
import { createGuardedFetch, type ResolveAll } from "./guarded-fetch.js";
import { prepareRuntimeServer, type AddServerOptions } from "./prepare-runtime-server.js";
import { requestWithRetry } from "./request-with-retry.js";
import { completeServerArgument, type CompleteOutcome, type CompletionRequest } from "./server-completions.js";
import { createResourceSubscriptions, type ResourceSubscriptions, type ResourceUpdateListener, type SubscribeResourceResult } from "./resource-subscriptions.js";
import type { SamplingHandler } from "./sampling.js";
import { createServerConnection, type ConnectionContext, type ServerConnection } from "./server-connection.js";
import type { McpResourceInfo, McpResourceTemplateInfo, McpServerEvents, McpServerInfo } from "./server-info.js";
import { explainMissingServerTool } from "./missing-tool.js";
import { createServerPool } from "./server-pool.js";
import { getServerPrompt, listServerPrompts, type GetPromptOutcome, type McpPromptInfo } from "./server-prompts.js";
import { listServerResources, listServerResourceTemplates, readServerResource, type ReadResourceResult, type ResourceRequestOptions } from "./server-resources.js";
import { isRetrySafe, type ServerTool } from "./tool-definitions.js";
import { estimateJsonBytes, unwrapToolResult } from "./unwrap-tool-result.js";
import { createToolFilter } from "./trust/tool-filter.js";
import { createToolTrust } from "./trust/tool-trust.js";
import type { TrustDecisionResult, TrustReview, TrustServerView } from "./trust/trust-review.js";

/** How long start-up (and `addServer`) waits for servers' first connection; slower ones join later. */
export const DEFAULT_MCP_STARTUP_TIMEOUT_MS = 5_000;
/** The SDK's own request timeout sits this far past the call's deadline, so the call's signal speaks first. */
const SDK_TIMEOUT_SLACK_MS = 1_000;

export interface McpPluginOptions {
  /** How long start-up waits for servers' first connection. Default 5000. */
  startupTimeoutMs?: number;
  /** Answers servers' elicitation requests; without it servers are told the client cannot elicit. */
  onElicitation?: ElicitationHandler;
  /** Answers servers' sampling requests (a model's completion); without it servers are told the client cannot sample. */
  onSampling?: SamplingHandler;
  /** How untrusted servers' host names are resolved (default: the system resolver). */
  resolveHostname?: ResolveAll;
  /** Sends a person to an OAuth server's authorization URL; without it, `startServerLogin` (the CLI's `auth login`) does. */
  onAuthorization?: AuthorizationHandler;
  /** Where OAuth tokens are kept (default: files under `$XDG_CONFIG_HOME/toolexec/oauth`). */
  tokenStore?: OAuthTokenStore;
  /** The plugin's config file (mcp.json) relative to the root, or `false` for none. Default `"mcp.json"`. */
  configFile?: string | false;
  /** Run only these servers of the file (by name); the others are checked and left out. Default: all. */
  servers?: readonly string[];
}

export type AddServerResult = { ok: true; server: McpServerInfo } | { ok: false; error: { code: "CONFIG_INVALID" | "SERVER_NOT_ALLOWED" | "EXECUTOR_CLOSED"; message: string; details?: Record<string, unknown> } };

/** The `mcp` plugin's API for hosts (`executor.pluginApi(mcp)`; the executor's own MCP methods use it). */
export interface McpApi extends ServerLogins {
  /** Every MCP server (mcp.json's and those added at run time) with its state: connected, retrying, failed, disabled. */
  servers(): McpServerInfo[];
  /** The resources of the connected MCP servers. */
  listResources(options?: ResourceRequestOptions): Promise<McpResourceInfo[]>;
  /** Read one resource of one MCP server; faults come back as `{ ok: false, error }`. */
  readResource(server: string, uri: string, options?: ResourceRequestOptions): Promise<ReadResourceResult>;
  /**
   * Follow one resource of one MCP server: `listener` hears each `notifications/resources/updated`
   * for `uri` until `unsubscribe()`. Subscribers of a URI share one upstream subscription, renewed
   * after a reconnection. Faults (a server without subscriptions, a server down) come back as `{ ok: false, error }`.
   */
  subscribeResource(server: string, uri: string, listener: ResourceUpdateListener, options?: ResourceRequestOptions): Promise<SubscribeResourceResult>;
  /** The resource templates (`test://items/{id}`) of the connected MCP servers; read one with `readResource`. */
  listResourceTemplates(options?: ResourceRequestOptions): Promise<McpResourceTemplateInfo[]>;
  /** The prompts of the connected MCP servers. */
  listPrompts(options?: ResourceRequestOptions): Promise<McpPromptInfo[]>;
  /** Fetch one prompt of one MCP server with its arguments; faults come back as `{ ok: false, error }`. */
  getPrompt(server: string, name: string, args?: Record<string, string>, options?: ResourceRequestOptions): Promise<GetPromptOutcome>;
  /**
   * The values one server suggests for an argument of one of its prompts or resource templates (MCP's
   * `completion/complete`, `ref` naming the prompt or template as the server knows it). A server that
   * offers no completions answers an empty list; faults come back as `{ ok: false, error }`.
   */
  complete(server: string, request: CompletionRequest, options?: ResourceRequestOptions): Promise<CompleteOutcome>;
  /**
   * Add an MCP server at run time, e.g. a URL an end user brings. Untrusted (the default) entries must
   * be http(s) URLs to public addresses (`SERVER_NOT_ALLOWED` otherwise). Waits for the first
   * connection like start-up does; resolves to the server's state, or `{ ok: false, error }`.
   */
  addServer(name: string, entry: unknown, options?: AddServerOptions): Promise<AddServerResult>;
  /** Remove a server added with `addServer`; false when there is none by that name. */
  removeServer(name: string): Promise<boolean>;
  /** Every server's trust policy and tools: what is quarantined and why, description diffs, hygiene warnings. See docs/tool-trust.md. */
  reviewTools(): TrustReview;
  /** Approve a server (`"docs"`: all its tools as they are now) or one tool (`"docs__search"`); recorded in the lock file and the execution log. */
  approveTools(target: string): Promise<TrustDecisionResult>;
  /** Revoke a server's approval (all its tools held) or one tool's (held again until approved). */
  revokeTools(target: string): Promise<TrustDecisionResult>;
}

interface Route {
  connection: ServerConnection;
  tool: ServerTool;
}

/**
 * @example
 * const plugin = mcpPlugin({ onElicitation: async () => ({ action: "decline" }) });
 * // it owns mcp.json: the executor starts it with the file's resolved servers as context.config
 */
export function mcpPlugin(options: McpPluginOptions = {}): ExecutorPlugin<McpServerEntry, McpApi, McpServerEntry[]> {
  const startupTimeoutMs = options.startupTimeoutMs ?? DEFAULT_MCP_STARTUP_TIMEOUT_MS;
  const pool = createServerPool();
  const guarded = createGuardedFetch(options.resolveHostname);
  let resourceSubscriptions: ResourceSubscriptions | undefined;
  const trust = createToolTrust();
  const oauth = { store: options.tokenStore ?? createFileTokenStore(), ...(options.onAuthorization ? { onAuthorization: options.onAuthorization } : {}) };
  let instances = 0;

  return {
    name: "mcp",
    contractVersion: PLUGIN_CONTRACT_VERSION,
    config: mcpConfigSection({ file: options.configFile, ...(options.servers ? { servers: options.servers } : {}) }),
    async start(given, context: PluginContext<McpServerEntry[]>): Promise<PluginInstance<McpApi>> {
      // Servers may also come as entries (a test or a host starting the plugin by hand).
      const entries = [...given, ...(context.config ?? [])];
      instances++;
      const emit = <Name extends keyof McpServerEvents>(event: Name, payload: McpServerEvents[Name]) => context.emit(event, payload as never);
      const connectionContext = (entry: McpServerEntry, source: "config" | "runtime", trusted: boolean): ConnectionContext => {
        const selectTools = createToolFilter(entry, (current, fresh) => trust.noteUnmatched(entry.name, current, fresh));
        return {
          source,
          logger: context.logger,
          fetch: trusted ? globalThis.fetch : guarded.fetch,
          ...(options.onElicitation ? { onElicitation: options.onElicitation } : {}),
          ...(options.onSampling ? { onSampling: options.onSampling } : {}),
          ...(selectTools ? { selectTools } : {}),
          oauth,
          emit,
        };
      };
      // A config server takes over the name of a runtime one.
      for (const entry of entries) {
        if (pool.runtime.has(entry.name)) {
          context.logger.warn(`mcp.json now defines server "${entry.name}"; the one added at run time is replaced`);
          await pool.removeRuntime(entry.name);
        }
      }
      const configured = entries.map((entry) => pool.acquire(entry, connectionContext(entry, "config", true)));
      const listeners = new Set<() => void>();
      let routes: Map<string, Route> | undefined;
      let closed = false;
      const changed = () => {
        routes = undefined;
        if (!closed) for (const listener of [...listeners]) listener();
      };
      const all = () => [...configured, ...pool.runtime.values()];
      const subscriptions = new Map<ServerConnection, () => void>();
      const subscribe = () => {
        for (const connection of all()) if (!subscriptions.has(connection)) subscriptions.set(connection, connection.onToolsChanged(changed));
      };
      subscribe();
      const unsubscribeRuntime = pool.onRuntimeChanged(() => {
        subscribe();
        changed();
      });
      const view = (connection: ServerConnection): TrustServerView => ({ entry: connection.entry, source: connection.source, tools: connection.tools(), connected: connection.info().state === "connected" });
      await trust.start({ root: context.root, logger: context.logger, emit: (event, payload) => context.emit(event, payload as never), ...(context.writeLog ? { writeLog: context.writeLog } : {}), servers: () => all().map(view) });
      const unsubscribeTrust = trust.onChanged(changed);
      // Only an unprefixed server's names can clash (prefixed ones differ by server name): they are
      // known once both are connected, so the first in mcp.json order keeps the name, and each
      // rebuild warns again while the clash lasts.
      /** The routes of `connections`' tools, the first in order keeping a name two serve; and the names two serve. */
      const buildRoutes = (connections: ServerConnection[]) => {
        const table = new Map<string, Route>();
        const clashes: Array<{ tool: string; servers: [string, string] }> = [];
        // Quarantined tools never enter the table: not listed, not routed (docs/tool-trust.md).
        const admitted = trust.admit(connections.map(view));
        for (const [index, connection] of connections.entries()) {
          for (const tool of admitted[index]!) {
            const first = table.get(tool.definition.name);
            if (first) clashes.push({ tool: tool.definition.name, servers: [first.tool.server, tool.server] });
            else table.set(tool.definition.name, { connection, tool });
          }
        }
        return { table, clashes };
      };
      /** Take `built` as the routes in force, warning about the names two servers serve. */
      const adoptRoutes = (built: ReturnType<typeof buildRoutes>) => {
        for (const { tool, servers } of built.clashes) {
          context.logger.warn(`MCP tool name "${tool}" is served by both server "${servers[0]}" and server "${servers[1]}"; keeping server "${servers[0]}"'s (set "prefix": true on one of them)`);
        }
        return (routes = built.table);
      };
      const routeTable = () => routes ?? adoptRoutes(buildRoutes(all()));
      /** Why `name` is not routed, as trust and the servers' states tell. */
      const whyMissing = (name: string) => {
        routeTable();
        return trust.explain(name) ?? explainMissingServerTool(name, api.servers());
      };
      await Promise.all(configured.map((connection) => connection.start(startupTimeoutMs)));

      const noServer = (server: string) => toolError("TOOL_NOT_FOUND", `No MCP server named "${server}"`, { servers: all().map((candidate) => candidate.entry.name) });
      const api: McpApi = {
        // A quarantined tool is not listed anywhere, a server's tool names included.
        servers: () => all().map((connection) => {
          const info = connection.info();
          return { ...info, tools: info.tools.filter((name) => trust.explain(name) === undefined) };
        }),
        listResources: (requestOptions) => listServerResources(all(), context.logger, requestOptions),
        async readResource(server, uri, requestOptions) {
          const connection = all().find((candidate) => candidate.entry.name === server);
          if (!connection) return noServer(server);
          return readServerResource(connection, uri, requestOptions);
        },
        async subscribeResource(server, uri, listener, requestOptions) {
          const connection = all().find((candidate) => candidate.entry.name === server);
          if (!connection) return noServer(server);
          resourceSubscriptions ??= createResourceSubscriptions(context.logger);
          return resourceSubscriptions.subscribe(connection, uri, listener, requestOptions);
        },
        listResourceTemplates: (requestOptions) => listServerResourceTemplates(all(), context.logger, requestOptions),
        listPrompts: (requestOptions) => listServerPrompts(all(), context.logger, requestOptions),
        async getPrompt(server, name, args = {}, requestOptions) {
          const connection = all().find((candidate) => candidate.entry.name === server);
          if (!connection) return noServer(server);
          return getServerPrompt(connection, name, args, requestOptions);
        },
        async complete(server, request, requestOptions) {
          const connection = all().find((candidate) => candidate.entry.name === server);
          if (!connection) return noServer(server);
          return completeServerArgument(connection, request, requestOptions);
        },
        async addServer(name, entry, addOptions = {}) {
          if (closed) return { ok: false, error: { code: "EXECUTOR_CLOSED", message: "The MCP plugin is closed" } };
          const prepared = await prepareRuntimeServer(name, entry, addOptions, {
            root: context.root,
            taken: new Set(all().map((connection) => connection.entry.name)),
            ...(options.resolveHostname ? { resolveAll: options.resolveHostname } : {}),
          });
          if (!prepared.ok) return { ok: false, error: prepared.error as Extract<AddServerResult, { ok: false }>["error"] };
          const connection = createServerConnection(prepared.entry, connectionContext(prepared.entry, "runtime", addOptions.trusted === true));
          pool.addRuntime(connection);
          await connection.start(startupTimeoutMs);
          return { ok: true, server: connection.info() };
        },
        removeServer: (name) => pool.removeRuntime(name),
        reviewTools: () => trust.review(),
        approveTools: (target) => trust.approve(target),
        revokeTools: (target) => trust.revoke(target),
        ...createServerLogins(() => all()),
      };

      const instance: PluginInstance<McpApi> = {
        listTools: (): ToolDefinition[] => [...routeTable().values()].map((route) => route.tool.definition),
        onToolsChanged(listener) {
          listeners.add(listener);
          return () => listeners.delete(listener);
        },
        secrets: () => [...new Set(all().flatMap((connection) => [...connection.entry.secrets, ...(connection.authorization?.secrets() ?? [])]))],
        explainMissingTool: (name) => (closed ? undefined : whyMissing(name)),
        // A tool of a server that needs login: a login stored since by another process (`toolexec auth
        // login`) connects the server within this call, which then runs (docs/auth.md). The executor
        // asks this before explainMissingTool.
        async resolveMissingTool(name, { signal }) {
          if (closed) return false;
          const explained = whyMissing(name);
          if (explained?.code !== "AUTH_REQUIRED") return false;
          const server = String(explained.details?.server);
          const connection = all().find((candidate) => candidate.entry.name === server);
          if (!connection || signal.aborted) return false;
          // The executor stops waiting at the call's deadline; the connection goes on in the background.
          const connected = await connection.resumeStoredLogin().catch((error: unknown) => {
            context.logger.warn(`MCP server "${server}": reading its stored login failed: ${(error as Error)?.message ?? String(error)}`);
            return false;
          });
          return connected && !closed && routeTable().has(name);
        },
        callTool: (call, callOptions) => (closed ? Promise.resolve(toolError("EXECUTOR_CLOSED", "The MCP plugin is closed")) : callServerTool(routeTable().get(call.name), call, callOptions)),
        api,
        async close() {
          if (closed) return;
          closed = true;
          instances--;
          unsubscribeRuntime();
          unsubscribeTrust();
          for (const unsubscribe of subscriptions.values()) unsubscribe();
          await Promise.all([...configured.map((connection) => pool.release(connection)), trust.flush()]);
          if (instances === 0) {
            trust.close();
            await pool.closeRuntime();
            guarded.close();
          }
        },
      };
      // At start (and so at a reload), mcp.json servers serving one name is a config error, as a clash
      // with a local tool is; one that appears later (a server connecting late, a list change) keeps
      // the first server's tool, with the warning above.
      // Built once here: the check and the first routes share one pass over trust's admission.
      const built = buildRoutes(all());
      const clash = built.clashes.find(({ servers }) => servers.every((server) => configured.some((connection) => connection.entry.name === server)));
      if (!clash) adoptRoutes(built);
      else {
        await instance.close();
        const [first, second] = clash.servers;
        throw new ToolexecError("TOOL_NAME_CONFLICT", `Tool name "${clash.tool}" is served by both server "${first}" and server "${second}" in mcp.json; set "prefix": true on one of them`, { details: { tool: clash.tool, servers: clash.servers } });
      }
      return instance;

      async function callServerTool(route: Route | undefined, call: ToolCall, { signal, deadline, onProgress, caller }: PluginCallOptions): Promise<PluginResult> {
        if (!route) return toolError("TOOL_NOT_FOUND", `No MCP tool named "${call.name}"`);
        if (signal.aborted) return toolError(abortReasonCode(signal), `"${call.name}" was aborted before it was sent`);
        const { connection, tool } = route;
        const gate = pool.gate(connection);
        try {
          // A free slot is taken at once, without a promise to wait on.
          if (!gate.tryAcquire()) await gate.acquire(signal);
        } catch {
          return toolError(signal.aborted ? abortReasonCode(signal) : "EXECUTOR_CLOSED", `"${call.name}" ended while waiting for a free slot on server "${tool.server}" (maxConcurrency ${connection.entry.maxConcurrency})`);
        }
        // While the call runs, the server's own requests and log messages may be its caller's.
        const leave = connection.callers.enter(caller);
        try {
          const outcome = await requestWithRetry(
            connection,
            (session) =>
              session.request({ method: "tools/call", params: { name: tool.tool, arguments: call.arguments } }, CallToolResultSchema, {
                signal,
                timeoutMs: Math.max(1, deadline - Date.now()) + SDK_TIMEOUT_SLACK_MS,
                ...(onProgress ? { onProgress } : {}),
              }),
            { deadline, signal, repeatable: isRetrySafe(tool.definition), what: call.name },
          );
          if (!outcome.ok) return toolError(outcome.failure.code ?? "SERVICE_UNAVAILABLE", outcome.failure.message, { server: tool.server, ...outcome.failure.details });
          const limit = connection.entry.maxResponseBytes;
          const bytes = estimateJsonBytes(outcome.value, limit);
          if (bytes > limit) return toolError("OUTPUT_TOO_LARGE", `"${call.name}" answered with more than ${limit} bytes (maxResponseBytes of server "${tool.server}")`, { server: tool.server, maxResponseBytes: limit });
          return unwrapToolResult(tool.server, tool.tool, outcome.value);
        } finally {
          leave();
          gate.release();
        }
      }
    },
  };
}
