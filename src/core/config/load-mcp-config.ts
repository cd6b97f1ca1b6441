/** Loads mcp.json: the top level, every server entry's shape, and each entry resolved for the `mcp` plugin. */
import path from "node:path";
import type { ConfigIssue } from "../errors/config-error.js";
import { SERVER_NAME_PATTERN, SERVER_NAME_RULE, suggestServerName } from "../tool-names.js";
import { closestMatch, valueAt } from "./describe-value.js";
import { MCP_CONFIG_KEYS, mcpConfigSchema } from "./mcp-config-schema.js";
import { mcpServerEntrySchema, trustPolicySchema, type McpServerEntryFile } from "./mcp-server-schema.js";
import { formatJsonPath, type JsonDocument } from "./parse-json-document.js";
import { readJsonConfig } from "./read-json-config.js";
import { resolveMcpServer, type McpServerEntry } from "./resolve-mcp-server.js";

export type { McpServerEntry } from "./resolve-mcp-server.js";

export type LoadMcpResult =
  | { status: "ok"; servers: McpServerEntry[]; warnings: ConfigIssue[] }
  | { status: "missing" | "invalid"; issues: ConfigIssue[] };

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === "object" && !Array.isArray(value);

/** Read and check `mcp.json` (or `fileName`) under `root`. Never throws for file content. */
export async function loadMcpConfig(root: string, fileName: string, environment: Record<string, string | undefined> = process.env): Promise<LoadMcpResult> {
  const absolutePath = path.resolve(root, fileName);
  const file = path.relative(root, absolutePath) || fileName;
  const read = await readJsonConfig(absolutePath, file, mcpConfigSchema, 'create it with { "mcpServers": {} } or pass `mcpConfig: false` to run without MCP servers');
  if (read.status === "missing") return read;
  if (read.status === "invalid" && read.document === undefined) return read;
  const document = read.document!;
  const issues: ConfigIssue[] = read.status === "invalid" ? [...read.issues] : [];
  const top = document.value as Record<string, unknown>;
  const hasServers = Object.prototype.hasOwnProperty.call(top, "servers");
  const hasMcpServers = Object.prototype.hasOwnProperty.call(top, "mcpServers");
  if (hasServers && hasMcpServers) {
    issues.push({ file, path: "servers", ...document.locate(["servers"], { key: true }), message: 'Expected either "mcpServers" or "servers", got both' });
  } else if (!hasServers && !hasMcpServers && read.status === "ok") {
    const misspelled = Object.keys(top).find((name) => closestMatch(name, ["mcpServers", "servers"]) !== undefined && !(MCP_CONFIG_KEYS as readonly string[]).includes(name));
    const hint = misspelled === undefined ? "" : `; "${misspelled}" looks like a misspelling of "${closestMatch(misspelled, ["mcpServers", "servers"])}"`;
    issues.push({ file, path: "", line: 1, column: 1, message: `Missing required key "mcpServers" (or VS Code's "servers"): expected an object of servers by name${hint}` });
  }
  const warnings: ConfigIssue[] = [];
  for (const name of Object.keys(top)) {
    if ((MCP_CONFIG_KEYS as readonly string[]).includes(name)) continue;
    const hint = closestMatch(name, MCP_CONFIG_KEYS.slice(1));
    warnings.push(locateProblem(document, file, [name], `Ignored: "${name}" is not a toolexec key${hint ? ` (did you mean "${hint}"?)` : " (another client's setting in a shared file is fine)"}; toolexec reads ${MCP_CONFIG_KEYS.slice(1).join(", ")}`, true));
  }
  const key = hasMcpServers ? "mcpServers" : "servers";
  const servers = valueAt(top, [key]);
  const resolved: McpServerEntry[] = [];
  const defaultTrust = trustPolicySchema.safeParse(top.trust);
  if (isObject(servers)) {
    // Resolve every entry whose shape is valid, even when others are not: one round of fixes covers all.
    for (const [name, entry] of Object.entries(servers)) {
      if (!SERVER_NAME_PATTERN.test(name)) {
        const message = `Expected a server name of ${SERVER_NAME_RULE}, got ${JSON.stringify(name)}; rename it, e.g. to "${suggestServerName(name)}"`;
        issues.push(locateProblem(document, file, [key, name], message, true));
      }
      if (!mcpServerEntrySchema.safeParse(entry).success) continue;
      const result = resolveMcpServer(name, entry as McpServerEntryFile, { root, environment, ...(defaultTrust.success ? { defaultTrust: defaultTrust.data } : {}) });
      if (result.ok) resolved.push(result.server);
      else issues.push(...result.problems.map((problem) => locateProblem(document, file, [key, name, ...problem.path], problem.message, problem.atKey)));
    }
  }
  if (issues.length > 0) return { status: "invalid", issues };
  return { status: "ok", servers: resolved, warnings };
}

function locateProblem(document: JsonDocument, file: string, at: Array<string | number>, message: string, atKey = false): ConfigIssue {
  return { file, path: formatJsonPath(at), ...document.locate(at, { key: atKey }), message };
}
