/**
 * What the core executor offers a host: calls, tools, events, reloads, the registry writes and
 * plugins' APIs. The public `Executor` adds the built-in plugins' APIs.
 */
import type { RegistryChange, RegistrySnapshot, RegistryWriteOptions } from "../registry/tools-config-writer.js";
import type { ConfigIssue } from "../errors/config-error.js";
import type { Unsubscribe } from "../events.js";
import type { CallerAccess, CallToolOptions, ExecutorPlugin, JsonSchema, ToolAnnotations, UnavailableTool } from "../plugin-contract.js";
import type { ToolResult } from "../tool-result.js";
import type { ExecutorEvents } from "./executor-events.js";
import type { ReloadResult } from "./reloader.js";

/** The config in force, and the last problem with a change to it. */
export interface ConfigStatus {
  /** `ok`: the files on disk are what runs; `stale`: the last change was rejected and the last good config still runs. */
  state: "ok" | "stale";
  /** Absolute paths of the config files in use. */
  files: string[];
  /** Epoch ms of the last successful load (start-up or reload). */
  loadedAt: number;
  /** Non-fatal problems of the config in force. */
  warnings: readonly ConfigIssue[];
  /**
   * The tools the config names that cannot be served, each with what a call of it answers and the
   * plugin that should serve it: a Python entry naming a function its module lacks
   * (`TOOL_NOT_FOUND`) or whose schema cannot be derived (`TOOL_FAILED`). The rest runs. (A tool
   * whose schema cannot be used for validation is not here: it is listed and called unchecked.)
   */
  unavailableTools: ReadonlyArray<UnavailableTool & { plugin: string }>;
  /** The last rejected change, kept until a change loads; `message` is what `config:error` said. */
  lastError?: { code: string; message: string; at: number };
}

/** A tool as an LLM host sees it. */
export interface ToolInfo {
  name: string;
  description: string;
  /** In draft 2020-12, whatever dialect the tool declared (the executor validates in the declared one). */
  inputSchema: JsonSchema;
  /** In draft 2020-12, as `inputSchema`. */
  outputSchema?: JsonSchema;
  annotations?: ToolAnnotations;
}

/** What the core executor offers; the public `Executor` adds the built-in plugins' APIs. */
export interface CoreExecutor {
  /** The project folder, absolute. */
  readonly root: string;
  /** The execution log's folder, absolute, or false when the executor writes no log (`logDir: false`). */
  readonly logDir: string | false;
  /** Non-fatal config problems of the config in force (e.g. a script that does not exist yet). */
  readonly warnings: readonly ConfigIssue[];
  /**
   * Every callable tool with its JSON Schemas (each shown as its draft 2020-12 equivalent), less
   * those a plugin's listing policy hides from models (`codeExecution.listOnlyCodeExecution`);
   * hidden tools stay callable. With `access` (a served caller's, see `CallerAccess`): the tools as
   * that caller sees them, each described for its view (code_execution's declarations name only
   * the tools the caller may call).
   */
  listTools(options?: { access?: CallerAccess }): Promise<ToolInfo[]>;
  /** Run a tool. Resolves to a result envelope; throws only after `close()` (`EXECUTOR_CLOSED`). */
  callTool(name: string, args?: unknown, options?: CallToolOptions): Promise<ToolResult>;
  /** Subscribe to an event; returns the unsubscribe function. */
  on<Name extends keyof ExecutorEvents>(event: Name, listener: (payload: ExecutorEvents[Name]) => void): Unsubscribe;
  /** Re-read the config now (what the watcher does on a change); keeps the last good config on failure. */
  reload(): Promise<ReloadResult>;
  /** The config in force and the last rejected change, e.g. for a status page after a bad edit. */
  configStatus(): ConfigStatus;
  /**
   * The API of a running plugin (its `api` capability), typed by the plugin; `undefined` when that
   * plugin is not running. Throws `EXECUTOR_CLOSED` after `close()`.
   *
   * @example
   * const stats = executor.pluginApi(statsPlugin); // the same object passed in `plugins`
   */
  pluginApi<Api>(plugin: ExecutorPlugin<never, Api>): Api | undefined;
  /**
   * tools.json's entries as written, each with its tag, and the file's tag: the tags to pass as
   * `ifMatch` to the writes below. Throws `CONFIG_MISSING` when the executor runs without tools.json.
   */
  readRegistry(): Promise<RegistrySnapshot>;
  /**
   * Add a tool to tools.json (and write its script under tools/ when `options.script` is given).
   * Every registry write runs in the project's one write queue, is validated like tools.json at
   * load before anything is written (`INVALID_INPUT`), is written atomically keeping the rest of the
   * file as it was, and is live when the promise resolves. `CONFLICT`: the name exists, or
   * `options.ifMatch` (the file's tag) no longer matches. See docs/registry-api.md.
   *
   * @example
   * await executor.registerTool(
   *   { name: "greet", description: "Say hello", runtime: "shell", script: "greet.sh", inputSchema: { type: "object" } },
   *   { script: 'echo \'{"hello": "world"}\'\n' },
   * );
   */
  registerTool(entry: unknown, options?: RegistryWriteOptions): Promise<RegistryChange>;
  /** Replace a tools.json tool's entry whole (`ifMatch`: the entry's tag). `TOOL_NOT_FOUND`, `CONFLICT`, `INVALID_INPUT`. */
  replaceTool(name: string, entry: unknown, options?: RegistryWriteOptions): Promise<RegistryChange>;
  /** Change some keys of a tools.json tool's entry (a JSON merge patch: `null` removes a key). */
  updateTool(name: string, patch: unknown, options?: RegistryWriteOptions): Promise<RegistryChange>;
  /** Remove a tool from tools.json (its script stays). */
  removeTool(name: string, options?: { ifMatch?: string }): Promise<RegistryChange>;
  /** Stop every process, connection, watcher and timer. Idempotent. */
  close(): Promise<void>;
}
