/**
 * The MCP plugin's API for hosts (`executor.pluginApi(mcp)`): servers and their states, resources,
 * prompts, completions, servers added at run time, logins and tool trust.
 */
import type { PluginContext } from "../../core/plugin-contract.js";
import { toolError } from "../../core/tool-result.js";
import type { McpPluginOptions } from "./mcp-plugin.js";
import type { AddServerOptions } from "./prepare-runtime-server.js";
import { createResourceSubscriptions, type ResourceSubscriptions, type ResourceUpdateListener, type SubscribeResourceResult } from "./resource-subscriptions.js";
import { completeServerArgument, type CompleteOutcome, type CompletionRequest } from "./server-completions.js";
import type { ConnectionContext, ServerConnection } from "./server-connection.js";
import { addRuntimeServer, removeRuntimeServer } from "./runtime-servers.js";
import type { McpResourceInfo, McpResourceTemplateInfo, McpServerInfo } from "./server-info.js";
import { createServerLogins, type ServerLogins } from "./server-logins.js";
import type { ServerPool } from "./server-pool.js";
import type { StartGate } from "./start-gate.js";
import type { ToolListCache } from "./tool-list-cache.js";
import { getServerPrompt, listServerPrompts, type GetPromptOutcome, type McpPromptInfo } from "./server-prompts.js";
import { listServerResources, listServerResourceTemplates, readServerResource, type ReadResourceResult, type ResourceRequestOptions } from "./server-resources.js";
import type { ToolTrust } from "./trust/tool-trust.js";
import type { TrustDecisionResult, TrustReview } from "./trust/trust-review.js";

/** `SERVICE_UNAVAILABLE` and `CONFIG_MISSING` (no `TOOLEXEC_STORE_KEY`) come only with a shared store, which keeps the server for every replica. */
export type AddServerResult =
  | { ok: true; server: McpServerInfo }
  | { ok: false; error: { code: "CONFIG_INVALID" | "CONFIG_MISSING" | "SERVER_NOT_ALLOWED" | "SERVICE_UNAVAILABLE" | "EXECUTOR_CLOSED"; message: string; details?: Record<string, unknown> } };

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
   * connection like start-up does; resolves to the server's state, or `{ ok: false, error }`. With a
   * shared store (replicas on Redis) the server is kept there, sealed with `TOOLEXEC_STORE_KEY`, and
   * every replica runs it (docs/deploy.md).
   */
  addServer(name: string, entry: unknown, options?: AddServerOptions): Promise<AddServerResult>;
  /** Remove a server added with `addServer` (on every replica, with a shared store: `SERVICE_UNAVAILABLE` while it is down); false when there is none by that name. */
  removeServer(name: string): Promise<boolean>;
  /** Every server's trust policy and tools: what is quarantined and why, description diffs, hygiene warnings. See docs/tool-trust.md. */
  reviewTools(): TrustReview;
  /** Approve a server (`"docs"`: all its tools as they are now) or one tool (`"docs__search"`); recorded in the lock file and the execution log. */
  approveTools(target: string): Promise<TrustDecisionResult>;
  /** Revoke a server's approval (all its tools held) or one tool's (held again until approved). */
  revokeTools(target: string): Promise<TrustDecisionResult>;
}

/** What the plugin keeps across its instances: a reload starts a new instance, and runtime servers, trust and OAuth outlive it. */
export interface McpShared {
  readonly options: McpPluginOptions;
  readonly startupTimeoutMs: number;
  readonly pool: ServerPool;
  /** The cap on stdio servers starting at once, for every instance. */
  readonly startGate: StartGate;
  /** The tool-list cache of each project root the plugin ran in. */
  readonly toolCaches: Record<string, ToolListCache>;
  readonly guarded: { fetch: ConnectionContext["fetch"]; close(): void };
  readonly trust: ToolTrust;
  readonly oauth: ConnectionContext["oauth"];
  /** Instances running; the last to close closes what they share. */
  instances: number;
  resourceSubscriptions?: ResourceSubscriptions;
}

/** One instance of the plugin (one config), as the API and the instance share it. */
export interface McpInstanceRun {
  readonly shared: McpShared;
  readonly context: PluginContext;
  /** mcp.json's servers, in its order. */
  readonly configured: ServerConnection[];
  /** mcp.json's servers, then those added at run time. */
  all(): ServerConnection[];
  connectionContext(entry: ServerConnection["entry"], source: "config" | "runtime", trusted: boolean): ConnectionContext;
  closed: boolean;
}

export function createMcpApi(run: McpInstanceRun): McpApi {
  const { shared, context } = run;
  const { trust } = shared;
  /** The server named `server`, or the `TOOL_NOT_FOUND` result naming the servers there are. */
  const withServer = async <Result>(server: string, use: (connection: ServerConnection) => Promise<Result>) => {
    const connection = run.all().find((candidate) => candidate.entry.name === server);
    if (!connection) return toolError("TOOL_NOT_FOUND", `No MCP server named "${server}"`, { servers: run.all().map((candidate) => candidate.entry.name) });
    return use(connection);
  };
  return {
    // A quarantined tool is not listed anywhere, a server's tool names included.
    servers: () =>
      run.all().map((connection) => {
        const info = connection.info();
        return { ...info, tools: info.tools.filter((name) => trust.explain(name) === undefined) };
      }),
    listResources: (requestOptions) => listServerResources(run.all(), context.logger, requestOptions),
    readResource: (server, uri, requestOptions) => withServer(server, (connection) => readServerResource(connection, uri, requestOptions)),
    subscribeResource: (server, uri, listener, requestOptions) =>
      withServer(server, (connection) => {
        shared.resourceSubscriptions ??= createResourceSubscriptions(context.logger);
        return shared.resourceSubscriptions.subscribe(connection, uri, listener, requestOptions);
      }),
    listResourceTemplates: (requestOptions) => listServerResourceTemplates(run.all(), context.logger, requestOptions),
    listPrompts: (requestOptions) => listServerPrompts(run.all(), context.logger, requestOptions),
    getPrompt: (server, name, args = {}, requestOptions) => withServer(server, (connection) => getServerPrompt(connection, name, args, requestOptions)),
    complete: (server, request, requestOptions) => withServer(server, (connection) => completeServerArgument(connection, request, requestOptions)),
    addServer: (name, entry, addOptions = {}) => addRuntimeServer(run, name, entry, addOptions),
    removeServer: (name) => removeRuntimeServer(shared, name),
    reviewTools: () => trust.review(),
    approveTools: (target) => trust.approve(target),
    revokeTools: (target) => trust.revoke(target),
    ...createServerLogins(() => run.all()),
  };
}
