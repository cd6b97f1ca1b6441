/**
 * The `mcp` plugin: the servers of mcp.json (and those added at run time) as tools named
 * `server__tool`, over stdio, Streamable HTTP or legacy SSE, resilient where the raw SDK is not.
 */
import { mcpConfigSection } from "./config/mcp-config-section.js";
import { DEFAULT_MAX_CONCURRENT_STARTS, type ServerStartMode } from "./config/mcp-config-constants.js";
import { DEFAULT_INSTALL_TIMEOUT_MS } from "./config/package-runner.js";
import type { McpServerEntry } from "./config/resolve-mcp-server.js";
import { PLUGIN_CONTRACT_VERSION, type CallerInfo, type ExecutorPlugin, type PluginContext, type PluginInstance, type ToolDefinition } from "../../core/plugin-contract.js";
import { ToolexecError } from "../../core/errors/toolexec-error.js";
import { toolError } from "../../core/tool-result.js";
import type { AuthorizationHandler } from "./auth/server-authorization.js";
import { createFileTokenStore, type OAuthTokenStore } from "./auth/token-store.js";
import { callServerTool } from "./call-server-tool.js";
import type { ElicitationHandler } from "./elicitation.js";
import { createGuardedFetch, type ResolveAll } from "./guarded-fetch.js";
import { createListeners } from "./listeners.js";
import { createMcpApi, type McpApi, type McpInstanceRun, type McpShared } from "./mcp-api.js";
import { explainMissingServerTool } from "./missing-tool.js";
import type { SamplingHandler } from "./sampling.js";
import type { ConnectionContext, ServerConnection } from "./server-connection.js";
import type { McpServerEvents } from "./server-info.js";
import { createServerPool } from "./server-pool.js";
import { createStartGate } from "./start-gate.js";
import { createToolListCache } from "./tool-list-cache.js";
import { exposedNamePrefix } from "./tool-definitions.js";
import { createToolRoutes, trustView, type ToolRoutes } from "./tool-routes.js";
import { createToolFilter } from "./trust/tool-filter.js";
import { createToolTrust } from "./trust/tool-trust.js";
import { observeServerStates } from "./server-state-metric.js";
import { connectionForCaller } from "./principal-connections.js";
import type { RuntimeServerStore } from "./runtime-server-store.js";
import { followRuntimeServers, stopFollowingRuntimeServers } from "./runtime-servers.js";

export type { AddServerResult, McpApi } from "./mcp-api.js";

/** How long start-up (and `addServer`) waits for servers' first connection; slower ones join later. */
export const DEFAULT_MCP_STARTUP_TIMEOUT_MS = 5_000;

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
  /** First-start budget of a package runner's server (`npx -y`, `uvx`, `pipx run`, `bunx`) whose entry names none, in ms. Default 120000. */
  installTimeoutMs?: number;
  /** When a stdio server starts if neither its entry nor mcp.json's `serverDefaults` says: `eager` (default) or `lazy`. */
  start?: ServerStartMode;
  /**
   * Start-up (and `addServer`) waits for a package runner's first start to finish, up to its
   * first-start budget, instead of `startupTimeoutMs`: for a short-lived process (the CLI) that
   * would otherwise exit, and kill the download, before the server is up. Default false.
   */
  waitForInstalls?: boolean;
  /** A server entry that cannot be resolved (an unset variable, a bad URL) is a config error, not an unavailable server. */
  strict?: boolean;
  /** Where servers added at run time are kept for every replica (a shared store); default: this process's memory. */
  runtimeServers?: RuntimeServerStore;
}

/**
 * @example
 * const plugin = mcpPlugin({ onElicitation: async () => ({ action: "decline" }) });
 * // it owns mcp.json: the executor starts it with the file's resolved servers as context.config
 */
export function mcpPlugin(options: McpPluginOptions = {}): ExecutorPlugin<McpServerEntry, McpApi, McpServerEntry[]> {
  const shared: McpShared = {
    options,
    startupTimeoutMs: options.startupTimeoutMs ?? DEFAULT_MCP_STARTUP_TIMEOUT_MS,
    pool: createServerPool(),
    startGate: createStartGate(),
    guarded: createGuardedFetch(options.resolveHostname),
    trust: createToolTrust(),
    oauth: { store: options.tokenStore ?? createFileTokenStore(), ...(options.onAuthorization ? { onAuthorization: options.onAuthorization } : {}) },
    instances: 0,
    toolCaches: {},
  };
  return {
    name: "mcp",
    contractVersion: PLUGIN_CONTRACT_VERSION,
    config: mcpConfigSection({ file: options.configFile, ...(options.servers ? { servers: options.servers } : {}), strict: options.strict === true }),
    // Servers may also come as entries (a test or a host starting the plugin by hand).
    start: (given, context: PluginContext<McpServerEntry[]>) => startInstance(shared, [...given, ...(context.config ?? [])], context),
  };
}

/** Connect mcp.json's servers, start trust, wait for the first connections (up to the start-up timeout), and serve their tools. */
async function startInstance(shared: McpShared, entries: McpServerEntry[], context: PluginContext): Promise<PluginInstance<McpApi>> {
  shared.instances++;
  // One cap for the file: mcp.json's maxConcurrentStarts, carried by each of its stdio entries.
  const capped = entries.find((entry) => entry.transport === "stdio" && entry.maxConcurrentStarts !== undefined);
  shared.startGate.setLimit((capped?.transport === "stdio" ? capped.maxConcurrentStarts : undefined) ?? DEFAULT_MAX_CONCURRENT_STARTS);
  await replaceRuntimeNamesakes(shared, entries, context);
  const configured: ServerConnection[] = [];
  const run: McpInstanceRun = {
    shared,
    context,
    configured,
    all: () => [...configured, ...shared.pool.runtime.values()],
    connectionContext: (entry, source, trusted) => connectionContext(shared, context, entry, source, trusted),
    closed: false,
  };
  configured.push(...entries.map((entry) => shared.pool.acquire(entry, run.connectionContext(entry, "config", true))));
  const routes = createToolRoutes(shared.trust, context.logger, run.all);
  const feed = followToolChanges(run, routes);
  await shared.trust.start({ root: context.root, logger: context.logger, emit: (event, payload) => context.emit(event, payload as never), ...(context.writeLog ? { writeLog: context.writeLog } : {}), servers: () => run.all().map(trustView) });
  const unsubscribeTrust = shared.trust.onChanged(feed.changed);
  await Promise.all([...configured.map((connection) => connection.start(shared.startupTimeoutMs)), followRuntimeServers(run)]);
  const instance = createInstance(run, routes, feed, unsubscribeTrust);
  await refuseStartupClash(run, routes, instance);
  return instance;
}

/** A config server takes over the name of a runtime one. */
async function replaceRuntimeNamesakes(shared: McpShared, entries: McpServerEntry[], context: PluginContext): Promise<void> {
  for (const entry of entries) {
    if (shared.pool.runtime.has(entry.name)) {
      context.logger.warn(`mcp.json now defines server "${entry.name}"; the one added at run time is replaced`);
      await shared.pool.removeRuntime(entry.name);
    }
  }
}

function connectionContext(shared: McpShared, context: PluginContext, entry: McpServerEntry, source: "config" | "runtime", trusted: boolean): ConnectionContext {
  const { options, trust } = shared;
  const selectTools = createToolFilter(entry, (current, fresh) => trust.noteUnmatched(entry.name, current, fresh));
  return {
    source,
    logger: context.logger,
    fetch: trusted ? globalThis.fetch : shared.guarded.fetch,
    ...(options.onElicitation ? { onElicitation: options.onElicitation } : {}),
    ...(options.onSampling ? { onSampling: options.onSampling } : {}),
    ...(selectTools ? { selectTools } : {}),
    oauth: shared.oauth,
    installTimeoutMs: options.installTimeoutMs ?? DEFAULT_INSTALL_TIMEOUT_MS,
    defaultStart: options.start ?? "eager",
    startGate: shared.startGate,
    toolCache: (shared.toolCaches[context.root] ??= createToolListCache(context.root, context.logger)),
    waitForInstalls: options.waitForInstalls === true,
    emit: <Name extends keyof McpServerEvents>(event: Name, payload: McpServerEvents[Name]) => context.emit(event, payload as never),
  };
}

/** The instance's tool listeners, told when any server's tools, the runtime servers or trust change. */
interface ToolChangeFeed {
  changed(): void;
  onChanged(listener: () => void): () => void;
  /** Stop following (the instance closes). */
  stop(): void;
}

function followToolChanges(run: McpInstanceRun, routes: ToolRoutes): ToolChangeFeed {
  const listeners = createListeners();
  const changed = () => {
    routes.invalidate();
    if (!run.closed) listeners.notify();
  };
  const subscriptions = new Map<ServerConnection, () => void>();
  const subscribe = () => {
    for (const connection of run.all()) if (!subscriptions.has(connection)) subscriptions.set(connection, connection.onToolsChanged(changed));
  };
  subscribe();
  const unsubscribeRuntime = run.shared.pool.onRuntimeChanged(() => {
    subscribe();
    changed();
  });
  return {
    changed,
    onChanged: listeners.add,
    stop() {
      unsubscribeRuntime();
      for (const unsubscribe of subscriptions.values()) unsubscribe();
    },
  };
}

function createInstance(run: McpInstanceRun, routes: ToolRoutes, feed: ToolChangeFeed, unsubscribeTrust: () => void): PluginInstance<McpApi> {
  const { shared, context } = run;
  const api = createMcpApi(run);
  const stopObservingStates = observeServerStates(() => api.servers());
  /** Why `name` is not routed, as trust and the servers' states tell. */
  const whyMissing = (name: string) => {
    routes.table();
    return shared.trust.explain(name) ?? explainMissingServerTool(name, api.servers());
  };
  return {
    listTools: (): ToolDefinition[] => [...routes.table().values()].map((route) => route.tool.definition),
    onToolsChanged: feed.onChanged,
    secrets: () => [...new Set(run.all().flatMap((connection) => [...connection.entry.secrets, ...(connection.authorization?.secrets() ?? []), ...(connection.principals?.secrets() ?? [])]))],
    explainMissingTool: (name) => (run.closed ? undefined : whyMissing(name)),
    // A tool of a server that needs login: a login stored since by another process (`toolexec auth
    // login`) connects the server within this call, which then runs (docs/auth.md). The executor
    // asks this before explainMissingTool.
    async resolveMissingTool(name, { signal, caller }) {
      if (run.closed) return false;
      if (await startRestingOwner(run, name, signal)) return !run.closed && routes.table().has(name);
      const explained = whyMissing(name);
      if (explained?.code !== "AUTH_REQUIRED") return false;
      const server = String(explained.details?.server);
      const connection = run.all().find((candidate) => candidate.entry.name === server);
      if (!connection || signal.aborted) return false;
      // A per-user server without a shared login lists the tools its caller's own session lists.
      if (connection.principals) return (await listAsCaller(connection, caller, signal)) && !run.closed && routes.table().has(name);
      // The executor stops waiting at the call's deadline; the connection goes on in the background.
      const connected = await connection.resumeStoredLogin().catch((error: unknown) => {
        context.logger.warn(`MCP server "${server}": reading its stored login failed: ${(error as Error)?.message ?? String(error)}`);
        return false;
      });
      return connected && !run.closed && routes.table().has(name);
    },
    callTool: (call, callOptions) => (run.closed ? Promise.resolve(toolError("EXECUTOR_CLOSED", "The MCP plugin is closed")) : callServerTool(shared.pool, routes.table().get(call.name), call, callOptions)),
    api,
    async close() {
      if (run.closed) return;
      run.closed = true;
      shared.instances--;
      feed.stop();
      stopObservingStates();
      unsubscribeTrust();
      await Promise.all([...run.configured.map((connection) => shared.pool.release(connection)), shared.trust.flush()]);
      await shared.toolCaches[context.root]?.settled();
      if (shared.instances === 0) {
        stopFollowingRuntimeServers(shared);
        shared.trust.close();
        await shared.pool.closeRuntime();
        shared.guarded.close();
      }
    },
  };
}

/** Connect the caller's principal's session to a per-user server (its listing becomes the server's); true once up. */
async function listAsCaller(connection: ServerConnection, caller: CallerInfo | undefined, signal: AbortSignal): Promise<boolean> {
  const lease = await connectionForCaller(connection, caller);
  if (!lease.ok) return false;
  try {
    return (await lease.connection.ensureSession(Number.MAX_SAFE_INTEGER, signal)).ok;
  } finally {
    lease.release();
  }
}

/**
 * A name of a stopped (lazy) or idle server that its kept list lacks may be a tool added since that
 * list: the server is started (within the call's signal) and lists its tools afresh. True when it
 * started.
 */
async function startRestingOwner(run: McpInstanceRun, name: string, signal: AbortSignal): Promise<boolean> {
  const owner = run.all().find((connection) => {
    const { state } = connection.info();
    return (state === "stopped" || state === "idle") && connection.entry.prefix && name.startsWith(exposedNamePrefix(connection.entry.name));
  });
  if (owner === undefined) return false;
  // No retry-after wait is worth more than the call's own deadline, which `signal` carries.
  const started = await owner.ensureSession(Number.MAX_SAFE_INTEGER, signal);
  return started.ok;
}

/**
 * At start (and so at a reload), mcp.json servers serving one name is a config error, as a clash
 * with a local tool is; one that appears later (a server connecting late, a list change) keeps the
 * first server's tool, with a warning. Built once here: the check and the first routes share one
 * pass over trust's admission.
 */
async function refuseStartupClash(run: McpInstanceRun, routes: ToolRoutes, instance: PluginInstance<McpApi>): Promise<void> {
  const built = routes.build(run.all());
  const clash = built.clashes.find(({ servers }) => servers.every((server) => run.configured.some((connection) => connection.entry.name === server)));
  if (!clash) {
    routes.adopt(built);
    return;
  }
  await instance.close();
  const [first, second] = clash.servers;
  throw new ToolexecError("TOOL_NAME_CONFLICT", `Tool name "${clash.tool}" is served by both server "${first}" and server "${second}" in mcp.json; set "prefix": true on one of them`, { details: { tool: clash.tool, servers: clash.servers } });
}
