/**
 * The plugin contract, version 2: the only thing a plugin (script runners, MCP, code mode, human
 * input, or a host's own) has to implement — three required members — plus optional capabilities a
 * plugin declares when it needs more from the pipeline. It changes rarely and only with a version bump.
 * Version 2 added the optional capabilities (`selfScheduled`, `server`, `callTool` on the call's
 * options, `shapeLogRecord`, `isListed`, `api`); every version-1 plugin is a valid version-2 plugin.
 * The caller's optional `elicit`, `createMessage` and `log`, `contractVersion`, `config` and
 * `context.config` came later, additively (no bump).
 */
import type { CallerAccess, CallerInfo, CallerRecord } from "./caller-info.js";
import type { ErrorCode } from "./errors/error-codes.js";
import type { PluginConfigSection } from "./plugin-config.js";
import type { PluginEvents } from "./plugin-events.js";
import type { ToolResult } from "./tool-result.js";

export type { CallerAccess, CallerInfo, CallerRecord, PersonAnswer } from "./caller-info.js";

/** Bumped on any incompatible change to the types in this file (and `caller-info.ts`); a plugin states the one it targets as `contractVersion`. */
export const PLUGIN_CONTRACT_VERSION = 2;
/** The oldest contract version this executor still runs: every version-1 plugin is a valid version-2 plugin. */
export const MIN_PLUGIN_CONTRACT_VERSION = 1;

/** A JSON Schema document: draft 2020-12 unless it names another with `$schema` or evidently uses one (boolean exclusive bounds: draft-04). */
export type JsonSchema = Record<string, unknown>;

/** MCP's tool annotations: hints for clients, never enforced. */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** What a plugin says about one of its tools. */
export interface ToolDefinition {
  /** Unique across the executor; MCP tool-name characters only (`A-Z a-z 0-9 _ - .`). */
  name: string;
  /** Written for an LLM: what the tool does and when to use it. */
  description: string;
  /** JSON Schema of the arguments object; `type` must be `"object"`. */
  inputSchema: JsonSchema;
  /** JSON Schema the result value is checked against, when known. */
  outputSchema?: JsonSchema;
  annotations?: ToolAnnotations;
  /** Budget for one call when the caller names none; the executor default applies otherwise. */
  timeoutMs?: number;
  /** May calls of this tool overlap? Default false: one at a time, in arrival order. */
  parallel?: boolean;
  /**
   * Capability: the tool bounds its own concurrency (a pool, a queue) and takes no slot of the
   * executor's `maxConcurrency`; the calls it makes through `options.callTool` still take theirs.
   * `code_execution` is one. Default false.
   */
  selfScheduled?: boolean;
  /**
   * Where the tool lives when it belongs to a server (an MCP server, or a built-in one such as
   * `human`): the server's name as configured and the tool's name there. Code mode addresses tools by
   * it (`tools.<server>.<tool>`, `allowed_servers`); without it a tool is a local one.
   */
  server?: { name: string; tool: string };
  /** Characters of its value a bounded call gets before the rest is kept for `read_result`; absent: the executor's budget. */
  results?: { maxChars?: number };
  /** Capability: the description as a caller with `access` reads it, for a tool whose description names other tools (code_execution). */
  describeFor?(access: CallerAccess): string;
}

/** One call, as the core hands it to the plugin after validating the arguments. */
export interface ToolCall {
  name: string;
  arguments: Record<string, unknown>;
  executionId: string;
}

/** Given with every call: the plugin must stop work when `signal` aborts. */
export interface PluginCallOptions {
  /** Aborts at the deadline (reason code `TIMEOUT`), on cancel (`CANCELLED`) or on close (`EXECUTOR_CLOSED`). */
  signal: AbortSignal;
  /** Epoch milliseconds after which the core answers `TIMEOUT` whatever the plugin does. */
  deadline: number;
  /** Report progress of a long call; the executor emits it as `tool:progress`. Given only when someone listens. */
  onProgress?(progress: ToolProgress): void;
  /**
   * Call another tool as part of this call (composition): the sub-call goes through the whole
   * pipeline, is logged with this call's `executionId` as `parentExecutionId`, is cancelled with this
   * call unless given its own signal, and may borrow this call's concurrency slot, so composing tools
   * never deadlocks under `maxConcurrency`.
   */
  callTool(name: string, args?: unknown, options?: CallToolOptions): Promise<ToolResult>;
  /** Who made the call, when a front door said (or its parent call's). */
  caller?: CallerInfo;
}

/** Progress of a call, as MCP's progress notifications carry it. */
export interface ToolProgress {
  progress: number;
  total?: number;
  message?: string;
}

/** The error part of a failed result. */
export interface ToolErrorInfo {
  code: ErrorCode;
  message: string;
  details?: Record<string, unknown>;
}

/** A tool a plugin was configured to serve and cannot, and why: one broken piece (a Python entry naming a function its module lacks) leaves the rest running. */
export interface UnavailableTool {
  /** The tool's name; for `kind: "module"` (a `pythonModules` file that fails to import: its tools are unknown), its path. */
  name: string;
  kind?: "tool" | "module";
  /** What a call of it answers. */
  error: ToolErrorInfo;
  /** Where the config defines it, when a file does: `{ file: "tools.json", path: "tools[3]" }`. */
  source?: { file: string; path: string };
}

/** What a plugin returns for a call: a fault of the call is a value, not a throw. */
export type PluginResult =
  | {
      ok: true;
      value: unknown;
      content?: unknown;
      /** Why the value may not be what the tool meant (e.g. a stray print turned a script's JSON into text); copied to the result and the log. */
      warnings?: string[];
    }
  | { ok: false; error: ToolErrorInfo };

/** Logger a host can pass; `console` fits. */
export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** Per-call options of `executor.callTool`. */
export interface CallToolOptions {
  /** Aborting it ends the call with `CANCELLED` and stops the tool's work. */
  signal?: AbortSignal;
  /** Overrides the tool's budget for this call, queueing included. */
  timeoutMs?: number;
  /** Progress the tool reports for this call (it is also emitted as `tool:progress`). */
  onProgress?(progress: ToolProgress): void;
  /** Who is calling (a front door sets it); sub-calls inherit their parent's. */
  caller?: CallerInfo;
  /**
   * Ties a sub-call to the call under way that made it; logged as `parentExecutionId`. While that
   * call holds a concurrency slot, the sub-call may borrow it (see `PluginCallOptions.callTool`).
   */
  parentExecutionId?: string;
  /** Answer as a model should read it: a value over the budget becomes its head and a handle (`result.truncated`). Default false. */
  bounded?: boolean;
  /** The model's id of this call (LLM adapters pass it): the span's `gen_ai.tool.call.id`. */
  toolCallId?: string;
}

/** A call's execution-log record as the pipeline builds it, before a plugin's `shapeLogRecord`. */
export interface ExecutionRecord extends Record<string, unknown>, CallerRecord {
  time: string;
  executionId: string;
  parentExecutionId?: string;
  tool: string;
  plugin: string | null;
  arguments: unknown;
  ok: boolean;
  value?: unknown;
  /** A successful call's warnings, when it has any. */
  warnings?: string[];
  error?: ToolErrorInfo;
  durationMs: number;
  timeoutMs?: number;
}

/** What the executor lends a plugin. */
export interface PluginContext<Config = unknown> {
  /** The project folder (absolute). */
  root: string;
  logger: Logger;
  /**
   * The plugin's configuration, resolved, when it declares `config`: the value at this start. A
   * reload that changes it restarts the plugin with the new value; one that does not leaves it running.
   */
  config?: Config;
  /**
   * The executor's own pipeline: a new top-level call. To call tools from inside a tool call, use
   * the call's own `options.callTool` (or pass `parentExecutionId`), which never deadlocks.
   */
  callTool(name: string, args: unknown, options?: CallToolOptions): Promise<ToolResult>;
  /** Every tool in the registry right now, from all plugins. */
  listTools(): ToolDefinition[];
  /** Called after the registry changed (reload or a plugin's own change); returns the unsubscribe function. */
  onToolsChanged(listener: () => void): () => void;
  /**
   * Emit a plugin event to the host (`server:connected`, `code:start`, ...). Events emitted while
   * `createExecutor` is starting are held and delivered just after it resolves, so hosts hear them.
   */
  emit<Name extends keyof PluginEvents>(event: Name, payload: PluginEvents[Name]): void;
  /**
   * Append one record that is not a call to the execution log: an audit line for a decision a
   * person made (`{ event: "trust:decision", ... }`); the log adds `time`. Absent when the
   * executor has no log.
   */
  writeLog?(record: Record<string, unknown>): void;
  /**
   * What a call of `name` would answer because no tool has that name (`TOOL_NOT_FOUND`, or a
   * plugin's `explainMissingTool` answer: a server that is down, a quarantined tool), without
   * calling anything; undefined when the registry has `name`. Absent outside the executor.
   */
  explainMissingTool?(name: string): ToolErrorInfo | undefined;
  /** Ids of the calls under way that led to call `executionId`, nearest first ([] at top level; absent outside the executor). */
  callChain?(executionId: string): string[];
}

/**
 * A running plugin: the tools it serves right now. `listTools`, `callTool` and `close` are
 * required; everything else is an optional capability.
 */
export interface PluginInstance<Api = unknown> {
  listTools(): ToolDefinition[];
  callTool(call: ToolCall, options: PluginCallOptions): Promise<PluginResult>;
  /** Stops every process, connection and timer; safe to call twice. */
  close(): Promise<void>;
  /** Capability: tell the executor the tool list changed; returns the unsubscribe function. */
  onToolsChanged?(listener: () => void): () => void;
  /** Capability: strings the execution log must never show (env values, header values, keys). */
  secrets?(): readonly string[];
  /**
   * Capability: reshape the execution-log record of a call of one of this plugin's tools before it
   * is written (code runs log a code excerpt, not the whole code). Runs even when the call ended
   * because the executor closed. A throw keeps the record as built.
   */
  shapeLogRecord?(record: ExecutionRecord): Record<string, unknown>;
  /**
   * Capability: a listing policy over every plugin's tools. A tool for which any running plugin
   * answers false is left out of `executor.listTools()` (what a model is shown); it stays callable.
   */
  isListed?(tool: ToolDefinition): boolean;
  /**
   * Capability: why a name that is not in the registry is missing, when this plugin knows — e.g. the
   * tools of an MCP server that is down are not listed, and a call to one should say so rather than
   * "no tool named …". Asked only for unknown names, in start order; the first answer becomes the
   * call's result. Answer `undefined` for names that are not yours. Keep it quick; a throw is ignored.
   */
  explainMissingTool?(name: string): ToolErrorInfo | undefined;
  /**
   * Capability: the tools this plugin's config names that it cannot serve now, each with what a call
   * answers (its `explainMissingTool`). Listed by `configStatus()` and `toolexec validate`; fails start-up with `CONFIG_INVALID` under `strict: true`.
   */
  unavailableTools?(): UnavailableTool[];
  /**
   * Capability: make a missing tool available, when this plugin can do it during the call — e.g. an
   * MCP server that needs login, whose tokens another process (`toolexec auth login`) has stored
   * since. Asked only for names not in the registry, in start order, before `explainMissingTool`;
   * resolve true once the tool is listed (the call then runs it), false for names not yours or still
   * missing. `signal` aborts at the call's deadline or cancel (a throw counts as false); `caller` is
   * who the call runs as (a per-user MCP server connects that principal's session).
   */
  resolveMissingTool?(name: string, options: { signal: AbortSignal; caller?: CallerInfo }): Promise<boolean>;
  /**
   * Capability: the plugin's own API for hosts, reached with `executor.pluginApi(plugin)` (typed by
   * the plugin's `Api`), e.g. the MCP plugin's servers and resources.
   */
  api?: Api;
}

/**
 * A plugin: a plain object, usually made by a factory, with a unique `name`. `entries` are the
 * tools.json tools of its kind (`script`, and `python` for function entries); a plugin with none,
 * as every host plugin, is started with `[]`. The configuration it reads comes through `config`.
 *
 * @example
 * const clock: ExecutorPlugin = {
 *   name: "clock",
 *   async start() {
 *     return {
 *       listTools: () => [{ name: "now", description: "Current time, ISO 8601", inputSchema: { type: "object" } }],
 *       callTool: async () => ({ ok: true, value: new Date().toISOString() }),
 *       close: async () => {},
 *     };
 *   },
 * };
 */
export interface ExecutorPlugin<Entry = unknown, Api = unknown, Config = unknown> {
  name: string;
  /**
   * The contract version the plugin was written for. Absent means 1, the first version, which every later version
   * still runs. `createExecutor` refuses a version outside `MIN_PLUGIN_CONTRACT_VERSION`–`PLUGIN_CONTRACT_VERSION` (`INVALID_OPTIONS`).
   */
  contractVersion?: number;
  /**
   * Capability: the configuration the plugin reads (a key of tools.json, or a whole file), with its
   * schema and resolver; the resolved value arrives as `context.config`. See docs/plugins.md.
   */
  config?: PluginConfigSection<unknown, Config>;
  start(entries: Entry[], context: PluginContext<Config>): Promise<PluginInstance<Api>>;
}

export { abortReasonCode } from "./abort-reason-code.js";
