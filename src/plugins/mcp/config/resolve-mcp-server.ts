/**
 * Turns one mcp.json server entry, as written, into the MCP plugin's resolved entry: the transport
 * decided, variables interpolated, paths made absolute, defaults applied. Every problem comes back
 * with its JSON path inside the entry, so the loader can point at file, line and column.
 */
import os from "node:os";
import path from "node:path";
import { interpolateEnvironment, referencedValues, unsetVariablesMessage } from "../../../core/config/interpolate-environment.js";
import type { JsonPath } from "../../../core/json/parse-json-document.js";
import { resolveMcpOAuth, type McpOAuthSettings } from "./resolve-mcp-oauth.js";
import { packageRunnerOf } from "./package-runner.js";
import { readEnvFile } from "./read-env-file.js";
import { pythonServerEntry, type PythonServerLaunch } from "./resolve-python-server.js";
import { resolveRetry, stdioLifecycle } from "./resolve-server-options.js";
import {
  DEFAULT_MCP_MAX_CONCURRENCY,
  DEFAULT_MCP_MAX_RESPONSE_BYTES,
  DEFAULT_TRUST_POLICY,
  TRANSPORT_SPELLINGS,
  type ServerStartMode,
  type TrustPolicy,
} from "./mcp-config-constants.js";
import type { McpServerDefaults, McpServerEntryFile } from "./mcp-server-schema.js";

/** Backoff between attempts: `minDelayMs · 2^attempt`, jittered, never above `maxDelayMs`. */
export interface McpRetryPolicy {
  retries: number;
  minDelayMs: number;
  maxDelayMs: number;
}

interface McpServerCommon {
  /** The name its tools are served under (`name__tool`): the mcp.json key, or a safe name derived from it. */
  name: string;
  /** The mcp.json key as written, when it is not a valid server name and `name` was derived from it ("Brave Search"). */
  configKey?: string;
  /** false: listed in `servers()` as disabled, never started (`"enabled": false` or Cline's `"disabled": true`). */
  enabled: boolean;
  /**
   * Why the entry cannot be resolved in this environment (an unset `${VAR}`, a bad URL, a missing
   * envFile): the server is listed as `unavailable` with this reason and never started; the other
   * servers are not affected.
   */
  unavailable?: string;
  /** false: its tools keep their own names (`search`), not `server__search`. */
  prefix: boolean;
  /** Budget of one call and one connection attempt; absent: the executor's default. */
  timeoutMs?: number;
  retry: McpRetryPolicy;
  /** The result budget of the server's tools (`results.maxChars`), when the entry sets one. */
  results?: { maxChars: number };
  maxConcurrency: number;
  maxResponseBytes: number;
  /** Only tools matching one of these patterns enter the registry; absent: every tool. */
  includeTools?: string[];
  /** Tools matching one of these patterns never enter the registry (wins over `includeTools`). */
  excludeTools: string[];
  /** Tool trust policy (docs/tool-trust.md). */
  trust: TrustPolicy;
  /** Strings the execution log must hide: env and header values, and values taken from the environment. */
  secrets: string[];
}

export interface StdioServerEntry extends McpServerCommon {
  transport: "stdio";
  /**
   * The package runner the command starts the server through (`npx`, `uvx`, `pipx run`, `bunx`), or
   * `custom` when the entry gives an `installTimeoutMs` for another command: its first start may
   * download it, so it gets a first-start budget and is `installing` meanwhile.
   */
  packageRunner?: string;
  /** The entry's (or `serverDefaults`') first-start budget; absent: the executor's. */
  installTimeoutMs?: number;
  /** `eager` or `lazy` (entry, else `serverDefaults`); absent: the executor's `mcp.start`. */
  start?: ServerStartMode;
  /** Stop the server after this long without use; absent: never. */
  idleTimeoutMs?: number;
  /** mcp.json's top-level `maxConcurrentStarts`, the same on every stdio entry of the file; absent: 4. */
  maxConcurrentStarts?: number;
  command: string;
  args: string[];
  env: Record<string, string>;
  /** Absolute working directory (the project root unless `cwd` says otherwise). */
  cwd: string;
  /** mcp.json's `python`: `command` runs the launcher on this file, in its environment once built. */
  python?: PythonServerLaunch;
}

export interface RemoteServerEntry extends McpServerCommon {
  /** `auto`: the entry gave a `url` and no type; Streamable HTTP first, legacy SSE when the server only speaks that. */
  transport: "http" | "sse" | "auto";
  url: string;
  headers: Record<string, string>;
  /** OAuth settings, or `false` when the server is never authorized (docs/auth.md). */
  oauth: McpOAuthSettings | false;
}

/** One MCP server, resolved: what the `mcp` plugin is started with. */
export type McpServerEntry = StdioServerEntry | RemoteServerEntry;

export interface ResolveProblem {
  /** Path inside the entry (`["headers", "Authorization"]`); empty for the entry itself. */
  path: JsonPath;
  message: string;
  /** The key, not its value, is at fault. */
  atKey?: boolean;
  /**
   * The entry is well formed but cannot be resolved in this environment (an unset variable, a bad
   * URL, a missing envFile): only this server is unavailable, unless the executor is strict.
   */
  environmental?: boolean;
  /** The reason `servers()` and calls show for an environmental problem, when shorter than the message. */
  reason?: string;
}

export interface ResolveContext {
  root: string;
  environment: Record<string, string | undefined>;
  /** The policy when the entry names none (mcp.json's top-level `trust`). Default `DEFAULT_TRUST_POLICY`. */
  defaultTrust?: TrustPolicy;
  /** mcp.json's `serverDefaults`: what an entry does not set. */
  serverDefaults?: McpServerDefaults;
}

/**
 * `ok` with `problems` (all environmental): the server is resolved as `unavailable`, its values as
 * written. Not ok: the entry itself is wrong (both `type` and `transport`, no `command` nor `url`).
 */
export type ResolveMcpServerResult = { ok: true; server: McpServerEntry; problems: ResolveProblem[] } | { ok: false; problems: ResolveProblem[] };

const STDIO_KEYS = ["command", "args", "env", "envFile", "cwd", "installTimeoutMs", "start", "idleTimeoutMs"] as const;
const REMOTE_KEYS = ["url", "serverUrl", "headers", "oauth", "auth"] as const;

/** `${input:api-key}` (a VS Code prompt) is read from the variable `API_KEY`: nobody is there to answer a prompt. */
export const inputVariableName = (id: string) => id.toUpperCase().replace(/[^A-Z0-9_]/g, "_");

/**
 * Resolve one entry (already checked against `mcpServerEntrySchema`).
 *
 * @example
 * resolveMcpServer("docs", { type: "http", url: "https://example.com/mcp" }, { root, environment: process.env });
 * // { ok: true, server: { name: "docs", transport: "http", url: "https://example.com/mcp", headers: {}, ... } }
 */
export function resolveMcpServer(name: string, written: McpServerEntryFile, context: ResolveContext): ResolveMcpServerResult {
  const python = written.python === undefined ? undefined : pythonServerEntry(name, written, context.root);
  const [entry, problems] = python ? [python.entry, python.problems] : [written, [] as ResolveProblem[]];
  const secrets = new Set<string>();
  if (entry.enabled !== undefined && entry.disabled !== undefined) {
    problems.push({ path: ["disabled"], message: 'Give either "enabled" or "disabled" (Cline, Roo Code), not both', atKey: true });
  }
  const enabled = entry.enabled ?? (entry.disabled === undefined ? true : !entry.disabled);

  /** Expand variables in one string; disabled servers keep theirs as written (their variables need not exist). */
  const expand = (text: string, at: JsonPath): string => {
    if (!enabled) return text;
    let failed = false;
    const withEditorVariables = text
      .replace(/(?<!\$)\$\{workspaceFolder\}/g, () => context.root)
      .replace(/(?<!\$)\$\{userHome\}/g, () => os.homedir())
      .replace(/(?<!\$)\$\{input:([^}]*)\}/g, (_whole, id: string) => {
        const variable = inputVariableName(id);
        if (context.environment[variable] !== undefined) return `\${${variable}}`;
        problems.push({ path: at, message: `\${input:${id}} is a VS Code prompt, which toolexec cannot show; set the environment variable ${variable} to supply it`, environmental: true });
        failed = true;
        return "";
      });
    if (failed) return text;
    const unsupported = /(?<!\$)\$\{([A-Za-z]+):(?!-)[^}]*\}/.exec(withEditorVariables);
    if (unsupported && unsupported[1] !== "env") {
      problems.push({ path: at, message: `Unsupported variable ${unsupported[0]}: use \${VAR}, \${VAR:-default}, \${env:VAR}, \${workspaceFolder} or \${input:id}` });
      return text;
    }
    const result = interpolateEnvironment(withEditorVariables, context.environment);
    if (!result.ok) {
      const reason = `needs ${result.missing.join(", ")}, which ${result.missing.length === 1 ? "is" : "are"} not set`;
      problems.push({ path: at, message: unsetVariablesMessage(result.missing, `server "${name}"`), environmental: true, reason });
      return text;
    }
    for (const value of referencedValues(withEditorVariables, context.environment)) secrets.add(value);
    return result.value;
  };
  const expandRecord = (record: Record<string, string> | undefined, at: string): Record<string, string> => {
    const resolved: Record<string, string> = {};
    for (const [key, value] of Object.entries(record ?? {})) {
      // defineProperty: a "__proto__" variable or header must stay data.
      Object.defineProperty(resolved, key, { value: expand(value, [at, key]), enumerable: true, writable: true, configurable: true });
    }
    return resolved;
  };

  if (entry.type !== undefined && entry.transport !== undefined) {
    problems.push({ path: ["transport"], message: 'Give either "type" or "transport", not both', atKey: true });
  }
  if (entry.url !== undefined && entry.serverUrl !== undefined) {
    problems.push({ path: ["serverUrl"], message: 'Give either "url" or "serverUrl", not both', atKey: true });
  }
  if (entry.excludeTools !== undefined && entry.disabledTools !== undefined) {
    problems.push({ path: ["disabledTools"], message: 'Give either "excludeTools" or "disabledTools", not both', atKey: true });
  }
  if (entry.trust !== undefined && entry.quarantined !== undefined) {
    problems.push({ path: ["quarantined"], message: 'Give either "trust" or "quarantined", not both', atKey: true });
  }
  const spelled = entry.type ?? entry.transport;
  const declared = spelled === undefined ? undefined : TRANSPORT_SPELLINGS[spelled];
  const rawUrl = entry.url ?? entry.serverUrl;
  const urlKey = entry.url !== undefined ? "url" : "serverUrl";
  let kind: McpServerEntry["transport"] | undefined = declared;
  if (kind === undefined) {
    if (entry.command !== undefined && rawUrl !== undefined) {
      problems.push({ path: [urlKey], message: 'Expected either "command" (a stdio server) or "url" (an http or sse server), got both', atKey: true });
    } else if (entry.command !== undefined) {
      kind = "stdio";
    } else if (rawUrl !== undefined) {
      kind = "auto";
    } else {
      problems.push({ path: [], message: 'Missing required key "command" (for a stdio server) or "url" (for an http or sse server)' });
    }
  }
  if (kind === undefined) return { ok: false, problems };

  const defaults = context.serverDefaults ?? {};
  const retry = resolveRetry({ ...defaults.retry, ...entry.retry });
  if (retry.minDelayMs > retry.maxDelayMs) {
    problems.push({ path: ["retry", "minDelayMs"], message: `Expected minDelayMs (${retry.minDelayMs}) to be at most maxDelayMs (${retry.maxDelayMs})` });
  }
  const common = {
    name,
    enabled,
    prefix: entry.prefix ?? true,
    ...((entry.timeoutMs ?? defaults.timeoutMs) === undefined ? {} : { timeoutMs: entry.timeoutMs ?? defaults.timeoutMs }),
    retry,
    ...((entry.results?.maxChars ?? defaults.results?.maxChars) === undefined ? {} : { results: { maxChars: (entry.results?.maxChars ?? defaults.results?.maxChars) as number } }),
    maxConcurrency: entry.maxConcurrency ?? defaults.maxConcurrency ?? DEFAULT_MCP_MAX_CONCURRENCY,
    maxResponseBytes: entry.maxResponseBytes ?? defaults.maxResponseBytes ?? DEFAULT_MCP_MAX_RESPONSE_BYTES,
    ...(entry.includeTools === undefined ? {} : { includeTools: entry.includeTools }),
    excludeTools: entry.excludeTools ?? entry.disabledTools ?? [],
    trust: entry.trust ?? (entry.quarantined === true ? "quarantine" : (context.defaultTrust ?? DEFAULT_TRUST_POLICY)),
  };

  if (kind === "stdio") {
    for (const key of REMOTE_KEYS) {
      if (entry[key] !== undefined) problems.push({ path: [key], message: `"${key}" is for http and sse servers; this is a stdio server (it has "command")`, atKey: true });
    }
    if (entry.command === undefined) {
      problems.push({ path: [], message: `Missing required key "command" (a ${spelled} server runs a program)` });
      return { ok: false, problems };
    }
    const command = expand(entry.command, ["command"]);
    const args = (entry.args ?? []).map((arg, index) => expand(arg, ["args", index]));
    const cwd = path.resolve(context.root, entry.cwd === undefined ? "." : expand(entry.cwd, ["cwd"]));
    let fileValues: Record<string, string> = {};
    if (entry.envFile !== undefined && enabled) fileValues = readEnvFile(expand(entry.envFile, ["envFile"]), context.root, problems);
    const env = { ...expandRecord(fileValues, "envFile"), ...expandRecord(entry.env, "env") };
    for (const value of Object.values(env)) secrets.add(value);
    const lifecycle = stdioLifecycle(entry, defaults, packageRunnerOf(command, args));
    return settle({ ...common, transport: "stdio", ...lifecycle, command, args, env, cwd, secrets: [...secrets], ...python?.launch }, problems);
  }

  for (const key of STDIO_KEYS) {
    if (entry[key] !== undefined) problems.push({ path: [key], message: `"${key}" is for stdio servers; this is an ${kind === "sse" ? "sse" : "http"} server (it has "url")`, atKey: true });
  }
  if (rawUrl === undefined) {
    problems.push({ path: [], message: `Missing required key "url" (an ${spelled} server is reached over HTTP)` });
    return { ok: false, problems };
  }
  const url = expand(rawUrl, [urlKey]);
  if (enabled && !problems.some((problem) => problem.path[0] === urlKey)) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(url);
    } catch {
      problems.push({ path: [urlKey], message: `Expected an absolute http(s) URL, got ${JSON.stringify(url)}`, environmental: true });
    }
    if (parsed && parsed.protocol !== "http:" && parsed.protocol !== "https:") {
      problems.push({ path: [urlKey], message: `Expected an http: or https: URL, got ${JSON.stringify(parsed.protocol)}`, environmental: true });
    }
  }
  const headers = expandRecord(entry.headers, "headers");
  for (const value of Object.values(headers)) {
    secrets.add(value);
    // `Bearer abc`: the credential alone may be logged elsewhere (an echo tool, an error text).
    const credential = /^\S+\s+(\S.*)$/.exec(value)?.[1];
    if (credential) secrets.add(credential);
  }
  const oauth = resolveMcpOAuth(entry, headers, {
    expand,
    problem: (at, message) => problems.push({ path: at, message }),
    secret: (value) => secrets.add(value),
  });
  return settle({ ...common, transport: kind, url, headers, oauth, secrets: [...secrets] }, problems);
}

/** Any problem of the entry itself fails it; problems of the environment alone leave it unavailable, with their reason. */
function settle(server: McpServerEntry, problems: ResolveProblem[]): ResolveMcpServerResult {
  if (problems.length === 0) return { ok: true, server, problems };
  if (problems.some((problem) => problem.environmental !== true)) return { ok: false, problems };
  // Secrets of an entry that never starts are not worth keeping; its values stay as written.
  return { ok: true, server: { ...server, unavailable: [...new Set(problems.map((problem) => problem.reason ?? problem.message))].join("; "), secrets: [] }, problems };
}
