/**
 * The options of `createExecutor`: the core's, plus those of the built-in plugins, checked in one
 * strict schema so an unknown key is refused wherever it was meant to go.
 */
import { z } from "zod";
import { codeExecutionConfigSchema, timeoutCeilingProblem, type CodeExecutionConfig } from "./core/config/code-execution-config-schema.js";
import { resolveWebSearchConfig, type WebSearchSettings } from "./core/config/resolve-web-search-config.js";
import { MAX_TIMEOUT_MS } from "./core/config/tools-config-schema.js";
import { webSearchConfigSchema, type WebSearchConfig } from "./core/config/web-search-config-schema.js";
import { ToolexecError } from "./core/errors/toolexec-error.js";
import { checkOptions, coreOptionSchemas, type CoreExecutorOptions } from "./core/executor/executor-options.js";
import type { HumanInputHandler } from "./plugins/human/human-input-plugin.js";
import type { AuthorizationHandler } from "./plugins/mcp/auth/server-authorization.js";
import type { OAuthTokenStore } from "./plugins/mcp/auth/token-store.js";
import type { ElicitationHandler } from "./plugins/mcp/elicitation.js";
import type { SamplingHandler } from "./plugins/mcp/sampling.js";

/**
 * The options of `createExecutor`: the core's, plus those of the built-in plugins. See docs/api.md.
 *
 * @example
 * const options: ExecutorOptions = { root: "./my-project", maxConcurrency: 4, codeExecution: { enabled: true } };
 */
export interface ExecutorOptions extends CoreExecutorOptions {
  /** Enables `request_human_input`: called with the question, returns the person's answer. */
  onHumanInput?: HumanInputHandler;
  /** Answers MCP servers' elicitation requests (a form or a URL for the user); without it servers are told the client cannot elicit. */
  onElicitation?: ElicitationHandler;
  /** Answers MCP servers' sampling requests (`sampling/createMessage`: a completion from the host's model); without it servers are told the client cannot sample. */
  onSampling?: SamplingHandler;
  /**
   * Sends a person to an OAuth server's authorization URL (`{ server, url, redirectUrl }`); the host
   * then passes the redirect's `code` and `state` to `executor.finishServerLogin`. See docs/auth.md.
   */
  onAuthorization?: AuthorizationHandler;
  /** MCP client behaviour. */
  mcp?: {
    /** How long `createExecutor` waits for servers' first connection before going on without them (they join later). Default 5000. */
    startupTimeoutMs?: number;
    /**
     * Start only these mcp.json servers (by name); the others are left out as if absent. Default: all.
     * For a caller that needs a few servers of a large config (the CLI starts only the server of the tool it calls).
     */
    servers?: string[];
    /** Where OAuth tokens are kept (default: 0600 files under `$XDG_CONFIG_HOME/toolexec/oauth`). See docs/auth.md. */
    tokenStore?: OAuthTokenStore;
  };
  /**
   * Code mode (`code_execution`, `executor.executeCode`): off unless `enabled`. Each key set here
   * overrides the same key of tools.json's `codeExecution`. See docs/code-execution.md.
   */
  codeExecution?: CodeExecutionConfig;
  /** Tool search (`executor.searchTools` always works). See docs/tool-search.md. */
  toolSearch?: {
    /** Offer the `search_tools` tool to models, ranked like `searchTools`. Default false. */
    offerTool?: boolean;
    /**
     * Search-first listing for big registries: `listTools()` (what models and MCP clients are shown)
     * holds only `search_tools`, `call_tool` and the pinned tools; every tool stays callable by name.
     * Implies `offerTool`. Default false.
     */
    searchFirst?: boolean;
    /** Under `searchFirst`, the tools listed besides those two. Default: request_human_input, code_execution, web_search (when registered). */
    pinnedTools?: string[];
    /**
     * Your own embedding model for the semantic stage: texts to vectors, one per text, all of one
     * length; called in batches of up to 128 texts, vectors cached by tool text. Default: the
     * embedded word vectors. `false`: lexical ranking only.
     */
    embeddings?: ((texts: string[]) => Promise<number[][]>) | false;
    /**
     * How much the semantic stage counts: what the tool most similar to the request gains, next to 1
     * for the best lexical match (0–1). Default 0.1, which only reorders near ties; raise it (0.3–0.5)
     * with a model trained for retrieval, and measure on your own requests.
     */
    semanticWeight?: number;
  };
  /**
   * The `web_search` tool: its provider, key and limits. Replaces tools.json's `webSearch` as a whole
   * (values are used as given: no `${VAR}`); `false` turns it off even when tools.json sets it.
   * See docs/web-search.md.
   */
  webSearch?: WebSearchConfig | false;
}

const optionsSchema = z.strictObject({
  ...coreOptionSchemas,
  onHumanInput: z.function().optional(),
  onElicitation: z.function().optional(),
  onSampling: z.function().optional(),
  onAuthorization: z.function().optional(),
  codeExecution: codeExecutionConfigSchema.optional(),
  toolSearch: z
    .strictObject({
      offerTool: z.boolean().optional(),
      searchFirst: z.boolean().optional(),
      pinnedTools: z.array(z.string()).optional(),
      embeddings: z.union([z.function(), z.literal(false)]).optional(),
      semanticWeight: z.number().min(0).max(1).optional(),
    })
    .optional(),
  webSearch: z.union([webSearchConfigSchema, z.literal(false)]).optional(),
  mcp: z.strictObject({ startupTimeoutMs: z.number().int().nonnegative().max(MAX_TIMEOUT_MS).optional(), servers: z.array(z.string()).optional(), tokenStore: z.custom<OAuthTokenStore>(isTokenStore, "Expected a token store { load, save, remove }").optional() }).optional(),
});

function isTokenStore(value: unknown): boolean {
  const store = value as Record<string, unknown> | null;
  return typeof store === "object" && store !== null && typeof store.load === "function" && typeof store.save === "function" && typeof store.remove === "function";
}

/** What the built-in plugins' options become once checked. */
export interface CheckedPluginOptions {
  /** The `webSearch` option resolved: settings, `false` (off), or undefined (tools.json decides). */
  webSearch: WebSearchSettings | false | undefined;
}

/**
 * Check every option (`INVALID_OPTIONS` names each problem); the core's are resolved by the core's
 * own `resolveCheckedOptions`.
 */
export function checkExecutorOptions(options: ExecutorOptions): CheckedPluginOptions {
  checkOptions(optionsSchema, options);
  const ceilingProblem = options.codeExecution === undefined ? undefined : timeoutCeilingProblem(options.codeExecution);
  if (ceilingProblem !== undefined) throw new ToolexecError("INVALID_OPTIONS", `Invalid createExecutor options: codeExecution.maxTimeoutMs: ${ceilingProblem}`);
  return { webSearch: resolveWebSearchOption(options.webSearch) };
}

function resolveWebSearchOption(option: WebSearchConfig | false | undefined): WebSearchSettings | false | undefined {
  if (option === undefined || option === false) return option;
  const resolved = resolveWebSearchConfig(option);
  if (resolved.ok) return resolved.settings;
  const problems = resolved.problems.map(({ key, message }) => `webSearch${key === undefined ? "" : `.${key}`}: ${message}`);
  throw new ToolexecError("INVALID_OPTIONS", `Invalid createExecutor options: ${problems.join("; ")}`, { details: { problems } });
}
