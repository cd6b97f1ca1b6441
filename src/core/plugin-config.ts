/**
 * The `config` capability of the plugin contract: the part of the project's configuration a plugin
 * reads — a key of tools.json (`codeExecution`, `webSearch`, a host plugin's own key) or a whole
 * file (`mcp.json`) — with the zod schema that checks it and the resolver that turns it into what
 * the plugin runs with. The core reads, locates, checks, watches and reloads; the plugin gets the
 * resolved value as `context.config`, and is restarted with the new value when a reload changes it.
 * Added to contract version 2 additively: a plugin without `config` reads no configuration.
 */
import type { z } from "zod";
import type { ResolvedProjectPython } from "./python-environments/resolve-python-environment.js";

/** A path inside the section's value: keys and array indexes. */
export type ConfigPath = ReadonlyArray<string | number>;

/** tools.json's `defaults`, as written, with `env` resolved: what every tool source inherits. */
export interface ToolDefaults {
  timeoutMs?: number;
  maxOutputBytes?: number;
  parallel?: boolean;
  python?: string;
  memoryLimitMb?: number;
  /** `defaults.env` with `${VAR}` taken from the environment. */
  env: Record<string, string>;
  /** tools.json's `python` key, resolved: the project's Python environment and worker limits. */
  pythonProject?: ResolvedProjectPython;
}

/** What a resolver is lent: where it is, and how to report a problem at its place in the file. */
export interface ConfigSectionContext {
  /** The project folder (absolute). */
  root: string;
  /** The file's name as messages show it (relative to the root). */
  file: string;
  /** Where `${VAR}` values come from (the host's environment). */
  environment: Readonly<Record<string, string | undefined>>;
  /** tools.json's `defaults`, for a tools.json key that describes tools (`pythonModules`); absent for a file section. */
  toolDefaults?: ToolDefaults;
  /**
   * Report a problem at `path` inside the section (`[]`: the section itself), located by the core at
   * file:line:column. An error makes the config invalid (start-up throws `ConfigError`, a reload keeps
   * the last good config); a `warning` does not. `atKey`: point at the key rather than its value.
   */
  report(path: ConfigPath, message: string, options?: { warning?: boolean; atKey?: boolean }): void;
  /**
   * Check `value` (found at `path` inside the section) against a zod schema, reporting each issue as
   * the core does for its own keys ("Unknown key … (did you mean …)", "Expected …, got …"). Returns
   * the value when it passes, else undefined.
   */
  check<Value>(schema: z.ZodType<Value>, value: unknown, path: ConfigPath): Value | undefined;
}

interface SectionBase<Written, Value> {
  /** Checks what is written; unknown keys are errors when it is strict (`z.strictObject`). Its `.describe()` texts reach the published JSON Schema. */
  schema: z.ZodType<Written>;
  /**
   * Turn what is written (`undefined` when absent) into the plugin's value; called only when the
   * schema passed. Report problems through `context`; what is returned is ignored when an error was
   * reported. The value must be plain JSON: the executor compares it to decide on a restart.
   * Default: the written value as it is.
   */
  resolve?(written: Written | undefined, context: ConfigSectionContext): Value;
  /** Whether the plugin runs with this value (code mode runs only when enabled). Default: always. */
  enabled?(value: Value): boolean;
}

/** A top-level key of tools.json, which the plugin owns: no other plugin may claim it. */
export interface ToolsKeySection<Written = unknown, Value = unknown> extends SectionBase<Written, Value> {
  key: string;
}

/** A whole JSON file under the project root (`mcp.json`). `false`: the file is not read (`written` is undefined). */
export interface FileSection<Written = unknown, Value = unknown> extends SectionBase<Written, Value> {
  file: string | false;
  /** How to fix a missing file, added to `CONFIG_MISSING`'s message (e.g. "create it with {…}, or pass `mcpConfig: false`"). */
  missingHint?: string;
}

/**
 * The configuration a plugin reads.
 *
 * @example
 * const config: PluginConfigSection<{ greeting?: string }, string> = {
 *   key: "greeter",
 *   schema: z.strictObject({ greeting: z.string().min(1).optional() }),
 *   resolve: (written) => written?.greeting ?? "Hello",
 * };
 */
export type PluginConfigSection<Written = unknown, Value = unknown> = ToolsKeySection<Written, Value> | FileSection<Written, Value>;
