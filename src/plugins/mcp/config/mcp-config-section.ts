/**
 * The MCP plugin's configuration: the whole of mcp.json (or the file `mcpConfig` names), read and
 * located by the core, resolved here into one entry per server: the top level, every server entry's
 * shape, and each entry resolved (transport, variables, paths, defaults).
 */
import { withLazySchema } from "../../../core/config/lazy-section-schema.js";
import { isPlainObject, isString, objectOf, type Check } from "../../../core/config/well-formed-checks.js";
import type { FileSection } from "../../../core/plugin-config.js";
import { closestMatch } from "../../../core/json/describe-value.js";
import { deriveServerName } from "./derive-server-name.js";
import { MCP_CONFIG_KEYS } from "./mcp-config-constants.js";
import type { McpConfigFile } from "./mcp-config-schema.js";
import type { McpServerEntry } from "./resolve-mcp-server.js";

export const DEFAULT_MCP_CONFIG_FILE = "mcp.json";

export interface McpConfigSectionOptions {
  /** mcp.json's path relative to the root, or `false` to run without MCP servers. Default `"mcp.json"`. */
  file?: string | false;
  /** Keep only these servers (by name, or by their mcp.json key); the others are checked but left out. Default: all. */
  servers?: readonly string[];
  /** An entry that cannot be resolved here (an unset variable, a bad URL) is an error, not an unavailable server. */
  strict?: boolean;
}

type Report = Parameters<NonNullable<FileSection["resolve"]>>[1]["report"];

const SERVER_KEYS = ["mcpServers", "servers"];

const isEmptyObject: Check = (value) => isPlainObject(value) && Object.keys(value).length === 0;
/**
 * The fast vouch for mcp.json (false: ask zod): a file with no server at all, as `toolexec init`
 * writes it. A file with servers loads the schemas (its servers bring the MCP SDK, and zod, anyway).
 */
export const isWellFormedMcpConfig: Check = objectOf(new Map([["$schema", isString], ["mcpServers", isEmptyObject], ["servers", isEmptyObject]]));

/** The top level's problems: both server keys, neither (with a misspelling named), keys toolexec ignores. */
function checkTopLevel(top: Record<string, unknown>, report: Report): void {
  const hasServers = Object.prototype.hasOwnProperty.call(top, "servers");
  const hasMcpServers = Object.prototype.hasOwnProperty.call(top, "mcpServers");
  if (hasServers && hasMcpServers) report(["servers"], 'Expected either "mcpServers" or "servers", got both', { atKey: true });
  else if (!hasServers && !hasMcpServers) {
    const misspelled = Object.keys(top).find((name) => closestMatch(name, SERVER_KEYS) !== undefined && !(MCP_CONFIG_KEYS as readonly string[]).includes(name));
    const hint = misspelled === undefined ? "" : `; "${misspelled}" looks like a misspelling of "${closestMatch(misspelled, SERVER_KEYS)}"`;
    report([], `Missing required key "mcpServers" (or VS Code's "servers"): expected an object of servers by name${hint}`);
  }
  for (const name of Object.keys(top)) {
    if ((MCP_CONFIG_KEYS as readonly string[]).includes(name)) continue;
    const hint = closestMatch(name, MCP_CONFIG_KEYS.slice(1));
    const message = `Ignored: "${name}" is not a toolexec key${hint ? ` (did you mean "${hint}"?)` : " (another client's setting in a shared file is fine)"}; toolexec reads ${MCP_CONFIG_KEYS.slice(1).join(", ")}`;
    report([name], message, { warning: true, atKey: true });
  }
}

/**
 * The section the MCP plugin declares.
 *
 * @example
 * mcpPlugin({ configFile: "config/mcp.json" }); // declares mcpConfigSection({ file: "config/mcp.json" })
 */
export function mcpConfigSection(options: McpConfigSectionOptions = {}): FileSection<McpConfigFile, McpServerEntry[]> {
  const only = options.servers === undefined ? undefined : new Set(options.servers);
  let schemas: typeof import("./mcp-server-schema.js") | undefined;
  // Resolving servers (transports, OAuth, env files, package runners) loads with the schemas: only a file with servers needs either.
  let resolving: typeof import("./resolve-mcp-server.js") | undefined;
  const lazy = {
    isWellFormed: isWellFormedMcpConfig,
    load: async () => {
      [schemas, resolving] = await Promise.all([import("./mcp-server-schema.js"), import("./resolve-mcp-server.js")]);
      return (await import("./mcp-config-schema.js")).mcpConfigSchema;
    },
  };
  return withLazySchema<FileSection<McpConfigFile, McpServerEntry[]>>({
    file: options.file ?? DEFAULT_MCP_CONFIG_FILE,
    missingHint: 'create it with { "mcpServers": {} } or pass `mcpConfig: false` to run without MCP servers',
    resolve(written, context) {
      if (written === undefined) return [];
      const top = written as Record<string, unknown>;
      checkTopLevel(top, context.report);
      const key = Object.prototype.hasOwnProperty.call(top, "mcpServers") ? "mcpServers" : "servers";
      const servers = (top[key] ?? {}) as Record<string, unknown>;
      const entries = Object.entries(servers);
      // A file with servers is never vouched for by the fast check: its schemas are loaded.
      if (entries.length === 0) return [];
      const { mcpServerEntrySchema, serverDefaultsSchema, trustPolicySchema } = schemas!;
      const defaultTrust = trustPolicySchema.safeParse(top.trust);
      const serverDefaults = serverDefaultsSchema.safeParse(top.serverDefaults ?? {});
      const maxConcurrentStarts = typeof top.maxConcurrentStarts === "number" ? { maxConcurrentStarts: top.maxConcurrentStarts } : {};
      const resolved: McpServerEntry[] = [];
      const names = new Map<string, string>();
      const approvals: string[] = [];
      // Resolve every entry whose shape is valid, even when others are not: one round of fixes covers all.
      for (const [configKey, entry] of entries) {
        const name = claimServerName(configKey, names, (message) => context.report([key, configKey], message, { atKey: true }));
        const shaped = context.check(mcpServerEntrySchema, entry, [key, configKey]);
        if (shaped === undefined || name === undefined) continue;
        if (shaped.autoApprove !== undefined || shaped.alwaysAllow !== undefined) approvals.push(configKey);
        const result = resolving!.resolveMcpServer(name, shaped, {
          root: context.root,
          environment: context.environment,
          ...(defaultTrust.success ? { defaultTrust: defaultTrust.data } : {}),
          ...(serverDefaults.success ? { serverDefaults: serverDefaults.data } : {}),
        });
        for (const problem of result.problems) {
          const unavailable = result.ok && options.strict !== true;
          const message = unavailable ? `${problem.message}; server "${name}" is unavailable until then (the other servers run)` : problem.message;
          context.report([key, configKey, ...problem.path], message, { atKey: problem.atKey === true, warning: unavailable });
        }
        const server = result.ok ? { ...result.server, ...(name === configKey ? {} : { configKey }), ...(result.server.transport === "stdio" ? maxConcurrentStarts : {}) } : undefined;
        if (server && (only === undefined || only.has(name) || only.has(configKey))) resolved.push(server);
      }
      if (approvals.length > 0) warnApprovals(key, approvals, servers, context.report);
      return resolved;
    },
  }, lazy);
}

/** The name `configKey`'s server is served under, unless it collides with another server's once derived. */
function claimServerName(configKey: string, names: Map<string, string>, refuse: (message: string) => void): string | undefined {
  const name = deriveServerName(configKey);
  const holder = names.get(name);
  if (holder !== undefined) {
    refuse(`Server ${JSON.stringify(configKey)} would be served as "${name}", the name of server ${JSON.stringify(holder)} too; rename one of them`);
    return undefined;
  }
  names.set(name, configKey);
  return name;
}

/** Other clients' approval lists are accepted, and said once per file not to be toolexec's trust settings. */
function warnApprovals(key: string, approvals: string[], servers: Record<string, unknown>, report: Report): void {
  const first = servers[approvals[0]!] as Record<string, unknown>;
  const approvalKey = first.autoApprove !== undefined ? "autoApprove" : "alwaysAllow";
  const named = approvals.map((name) => JSON.stringify(name)).join(", ");
  const message = `Ignored: "autoApprove" and "alwaysAllow" (${named}) are other clients' approval lists, not toolexec's trust settings; to hold new or changed tools for review, set "trust" (see docs/tool-trust.md)`;
  report([key, approvals[0]!, approvalKey], message, { warning: true, atKey: true });
}
