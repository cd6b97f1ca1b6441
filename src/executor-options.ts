/**
 * The options of `createExecutor`: the core's, plus those of the built-in plugins, checked in one
 * strict schema so an unknown key is refused wherever it was meant to go. Well-formed options are
 * vouched for by fast checks without zod; any others go to the zod schema (executor-options-schema.ts),
 * which decides and words every problem.
 */
import { MAX_TIMEOUT_MS } from "./core/config/timeout-limits.js";
import { either, integerFrom, isBoolean, isFunction, isString, objectOf, oneOf, arrayOf, type Check } from "./core/config/well-formed-checks.js";
import { ToolexecError } from "./core/errors/toolexec-error.js";
import type { CoreExecutorOptions } from "./core/executor/executor-options.js";
import { CORE_OPTION_CHECKS, isFileOption, isWellFormedOptions, optionalKeys } from "./core/executor/well-formed-core-options.js";
import type { CodeExecutionConfig } from "./plugins/code/config/code-execution-config-schema.js";
import { timeoutCeilingProblem } from "./plugins/code/config/code-execution-limits.js";
import { CODE_EXECUTION_CHECKS } from "./plugins/code/config/well-formed-code-execution.js";
import type { HumanInputHandler } from "./plugins/human/human-input-plugin.js";
import type { AuthorizationHandler } from "./plugins/mcp/auth/server-authorization.js";
import type { OAuthTokenStore } from "./plugins/mcp/auth/token-store.js";
import type { ElicitationHandler } from "./plugins/mcp/elicitation.js";
import type { SamplingHandler } from "./plugins/mcp/sampling.js";
import { isStore, type StoreOption } from "./core/store/open-store.js";
import { TOOL_SEARCH_CHECKS, type ToolSearchConfig } from "./plugins/search/config/tool-search-config.js";
import { resolveWebSearchOption } from "./plugins/web-search/config/web-search-config-section.js";
import type { WebSearchSettings } from "./plugins/web-search/config/resolve-web-search-config.js";
import type { WebSearchConfig } from "./plugins/web-search/config/web-search-config-schema.js";
import { WEB_SEARCH_CHECKS, WEB_SEARCH_REQUIRED_KEYS } from "./plugins/web-search/config/well-formed-web-search.js";

/**
 * The options of `createExecutor`: the core's, plus those of the built-in plugins. See docs/api.md.
 *
 * @example
 * const options: ExecutorOptions = { root: "./my-project", maxConcurrency: 4, codeExecution: { enabled: true } };
 */
export interface ExecutorOptions extends CoreExecutorOptions {
  /** mcp.json's path relative to root, or `false` to run without it. Default `"mcp.json"`. */
  mcpConfig?: string | false;
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
    /**
     * Budget of a package runner's server's first start (`npx -y`, `uvx`, `pipx run`, `bunx`), which
     * may download it; the server is `installing` meanwhile. An entry's `installTimeoutMs` wins. Default 120000.
     */
    installTimeoutMs?: number;
    /**
     * When a stdio server starts if neither its entry nor mcp.json's `serverDefaults` says: `"eager"`
     * (with the executor; the default) or `"lazy"` (on the first call that needs it, its tools listed
     * from the list its last run cached). See docs/mcp.md.
     */
    start?: "eager" | "lazy";
    /** Start-up waits for package runners' first starts (up to their budget) instead of `startupTimeoutMs`: for short-lived processes such as the CLI. Default false. */
    waitForInstalls?: boolean;
  };
  /**
   * Code mode (`code_execution`, `executor.executeCode`): off unless `enabled`. Each key set here
   * overrides the same key of tools.json's `codeExecution`. See docs/code-execution.md.
   */
  codeExecution?: CodeExecutionConfig;
  /**
   * Tool search (`executor.searchTools` always works). Each key set here overrides the same key of
   * tools.json's `toolSearch` (offerTool, searchFirst, pinnedTools, semanticWeight, model; see
   * docs/tool-search.md); `embeddings` is an option only.
   */
  toolSearch?: ToolSearchConfig & {
    /**
     * Your own embedding model for the semantic stage: texts to vectors, one per text, all of one
     * length; called in batches of up to 128 texts, vectors cached by tool text. Default: the
     * embedded word vectors. `false`: lexical ranking only.
     */
    embeddings?: ((texts: string[]) => Promise<number[][]>) | false;
  };
  /**
   * The `web_search` tool: its provider, key and limits. Replaces tools.json's `webSearch` as a whole
   * (values are used as given: no `${VAR}`); `false` turns it off even when tools.json sets it.
   * See docs/web-search.md.
   */
  webSearch?: WebSearchConfig | false;
  /**
   * Where shared state lives (registry writes, saved tools, trust decisions, OAuth tokens): `"files"`
   * (the default: the project's own files), a `redis://host:port/db` URL (shared by replicas), or a
   * `Store` object (closed by its owner). The running store is `executor.store`. See docs/api.md#store.
   */
  store?: StoreOption;
}

export function isTokenStore(value: unknown): boolean {
  const store = value as Record<string, unknown> | null;
  return typeof store === "object" && store !== null && typeof store.load === "function" && typeof store.save === "function" && typeof store.remove === "function";
}

/** What the built-in plugins' options become once checked. */
export interface CheckedPluginOptions {
  /** The `webSearch` option resolved: settings, `false` (off), or undefined (tools.json decides). */
  webSearch: WebSearchSettings | false | undefined;
}

/** One check per option, each no looser than its zod schema (every option may be absent). */
export const OPTION_CHECKS: ReadonlyMap<string, Check> = new Map([
  ...CORE_OPTION_CHECKS,
  ...optionalKeys(
    new Map<string, Check>([
      ["onHumanInput", isFunction],
      ["onElicitation", isFunction],
      ["onSampling", isFunction],
      ["onAuthorization", isFunction],
      ["mcpConfig", isFileOption],
      ["codeExecution", objectOf(optionalKeys(CODE_EXECUTION_CHECKS))],
      ["toolSearch", objectOf(optionalKeys(new Map([...TOOL_SEARCH_CHECKS, ["embeddings", either(isFunction, (value) => value === false)]])))],
      ["webSearch", either((value) => value === false, objectOf(optionalKeys(WEB_SEARCH_CHECKS, WEB_SEARCH_REQUIRED_KEYS), WEB_SEARCH_REQUIRED_KEYS))],
      ["store", either(isString, isStore)],
      [
        "mcp",
        objectOf(
          optionalKeys(
            new Map<string, Check>([
              ["startupTimeoutMs", integerFrom(0, MAX_TIMEOUT_MS)],
              ["servers", arrayOf(isString)],
              ["installTimeoutMs", integerFrom(1, MAX_TIMEOUT_MS)],
              ["start", oneOf(["eager", "lazy"])],
              ["waitForInstalls", isBoolean],
              ["tokenStore", isTokenStore],
            ]),
          ),
        ),
      ],
    ]),
  ),
]);

/**
 * Check every option (`INVALID_OPTIONS` names each problem); the core's are resolved by the core's
 * own `resolveCheckedOptions`.
 */
export async function checkExecutorOptions(options: ExecutorOptions): Promise<CheckedPluginOptions> {
  if (!isWellFormedOptions(options, OPTION_CHECKS)) (await import("./executor-options-schema.js")).checkAllOptions(options);
  const ceilingProblem = options.codeExecution === undefined ? undefined : timeoutCeilingProblem(options.codeExecution);
  if (ceilingProblem !== undefined) throw new ToolexecError("INVALID_OPTIONS", `Invalid createExecutor options: codeExecution.maxTimeoutMs: ${ceilingProblem}`);
  return { webSearch: resolveWebSearchOption(options.webSearch) };
}
