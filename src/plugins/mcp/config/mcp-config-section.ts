/**
 * The MCP plugin's configuration: the whole of mcp.json (or the file `mcpConfig` names), read and
 * located by the core, resolved here into one entry per server: the top level, every server entry's
 * shape, and each entry resolved (transport, variables, paths, defaults).
 */
import type { FileSection } from "../../../core/plugin-config.js";
import { SERVER_NAME_PATTERN, SERVER_NAME_RULE, suggestServerName } from "../../../core/tool-names.js";
import { closestMatch } from "../../../core/json/describe-value.js";
import { MCP_CONFIG_KEYS, mcpConfigSchema, type McpConfigFile } from "./mcp-config-schema.js";
import { mcpServerEntrySchema, trustPolicySchema } from "./mcp-server-schema.js";
import { resolveMcpServer, type McpServerEntry } from "./resolve-mcp-server.js";

export const DEFAULT_MCP_CONFIG_FILE = "mcp.json";

export interface McpConfigSectionOptions {
  /** mcp.json's path relative to the root, or `false` to run without MCP servers. Default `"mcp.json"`. */
  file?: string | false;
  /** Keep only these servers (by name); the others are checked but left out. Default: all. */
  servers?: readonly string[];
}

const SERVER_KEYS = ["mcpServers", "servers"];

/** The top level's problems: both server keys, neither (with a misspelling named), keys toolexec ignores. */
function checkTopLevel(top: Record<string, unknown>, report: Parameters<NonNullable<FileSection["resolve"]>>[1]["report"]): void {
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
  return {
    file: options.file ?? DEFAULT_MCP_CONFIG_FILE,
    schema: mcpConfigSchema,
    missingHint: 'create it with { "mcpServers": {} } or pass `mcpConfig: false` to run without MCP servers',
    resolve(written, context) {
      if (written === undefined) return [];
      const top = written as Record<string, unknown>;
      checkTopLevel(top, context.report);
      const key = Object.prototype.hasOwnProperty.call(top, "mcpServers") ? "mcpServers" : "servers";
      const servers = (top[key] ?? {}) as Record<string, unknown>;
      const defaultTrust = trustPolicySchema.safeParse(top.trust);
      const resolved: McpServerEntry[] = [];
      // Resolve every entry whose shape is valid, even when others are not: one round of fixes covers all.
      for (const [name, entry] of Object.entries(servers)) {
        if (!SERVER_NAME_PATTERN.test(name)) {
          const message = `Expected a server name of ${SERVER_NAME_RULE}, got ${JSON.stringify(name)}; rename it, e.g. to "${suggestServerName(name)}"`;
          context.report([key, name], message, { atKey: true });
        }
        const shaped = context.check(mcpServerEntrySchema, entry, [key, name]);
        if (shaped === undefined) continue;
        const result = resolveMcpServer(name, shaped, { root: context.root, environment: context.environment, ...(defaultTrust.success ? { defaultTrust: defaultTrust.data } : {}) });
        if (!result.ok) for (const problem of result.problems) context.report([key, name, ...problem.path], problem.message, { atKey: problem.atKey === true });
        else if (only === undefined || only.has(name)) resolved.push(result.server);
      }
      return resolved;
    },
  };
}
