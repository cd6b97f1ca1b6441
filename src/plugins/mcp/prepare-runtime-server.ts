/**
 * Checks a server a host adds at run time (`executor.addServer`). Trusted entries are checked like
 * mcp.json's. Untrusted ones (an end user's URL) must be http(s) URLs to public addresses, and may
 * not reference the host's environment: `${OPENAI_API_KEY}` in a URL would send the host's secret
 * to whoever wrote it.
 */
import { formatJsonPath } from "../../core/json/parse-json-document.js";
import { mcpServerEntrySchema, type McpServerEntryFile } from "./config/mcp-server-schema.js";
import { resolveMcpServer, type McpServerEntry } from "./config/resolve-mcp-server.js";
import { describeZodIssues } from "../../core/config/zod-issues.js";
import type { ToolErrorInfo } from "../../core/plugin-contract.js";
import { SERVER_NAME_PATTERN, SERVER_NAME_RULE } from "../../core/tool-names.js";
import { checkUntrustedUrl, type ResolveAll } from "./guarded-fetch.js";

/** Options of `addServer`. */
export interface AddServerOptions {
  /**
   * Trusted entries may be stdio commands, reach any address, use `${VAR}` and choose their trust
   * policy (default "trust"). Untrusted ones are quarantined until approved. Default false.
   */
  trusted?: boolean;
}

export interface PrepareContext {
  root: string;
  /** Server names in use (mcp.json's and runtime ones). */
  taken: ReadonlySet<string>;
  resolveAll?: ResolveAll;
}

const invalid = (message: string, details?: Record<string, unknown>): { ok: false; error: ToolErrorInfo } => ({
  ok: false,
  error: { code: "CONFIG_INVALID", message, ...(details === undefined ? {} : { details }) },
});
const refused = (message: string, details?: Record<string, unknown>): { ok: false; error: ToolErrorInfo } => ({
  ok: false,
  error: { code: "SERVER_NOT_ALLOWED", message, ...(details === undefined ? {} : { details }) },
});

/**
 * @example
 * await prepareRuntimeServer("docs", { url: "https://example.com/mcp" }, { trusted: false }, { root, taken: new Set() });
 * // { ok: true, entry: { name: "docs", transport: "auto", url: "https://example.com/mcp", ... } }
 */
export async function prepareRuntimeServer(
  name: string,
  raw: unknown,
  options: AddServerOptions,
  context: PrepareContext,
): Promise<{ ok: true; entry: McpServerEntry } | { ok: false; error: ToolErrorInfo }> {
  // The one rule mcp.json's names follow too (core's tool-names).
  if (typeof name !== "string" || !SERVER_NAME_PATTERN.test(name)) {
    return invalid(`Expected a server name of ${SERVER_NAME_RULE}, got ${JSON.stringify(name)}`);
  }
  if (context.taken.has(name)) return invalid(`A server named "${name}" already exists; remove it first or choose another name`);
  const trusted = options.trusted === true;
  const parsed = mcpServerEntrySchema.safeParse(raw);
  if (!parsed.success) {
    const problems = describeZodIssues(parsed.error.issues, mcpServerEntrySchema, raw).map(({ path, message }) => `${formatJsonPath([name, ...path])}: ${message}`);
    return invalid(`Invalid server entry: ${problems.join("; ")}`, { problems });
  }
  const entry = parsed.data as McpServerEntryFile;
  if (!trusted && JSON.stringify(raw).includes("${")) {
    return refused(`Refused server "${name}": variables (\${...}) are not expanded in untrusted entries`);
  }
  // An end user's server may not vouch for itself: it is held until a person approves it (docs/tool-trust.md).
  if (!trusted && entry.trust !== undefined && entry.trust !== "quarantine") {
    return refused(`Refused server "${name}": an untrusted server's trust policy is "quarantine"; add it with { trusted: true } to choose "${entry.trust}"`);
  }
  const resolved = resolveMcpServer(name, entry, { root: context.root, environment: trusted ? process.env : {}, defaultTrust: trusted ? "trust" : "quarantine" });
  // A server added at run time is wanted now: what would leave an mcp.json server unavailable refuses it.
  if (!resolved.ok || resolved.problems.length > 0) {
    const problems = resolved.problems.map(({ path, message }) => `${formatJsonPath([name, ...path])}: ${message}`);
    return invalid(`Invalid server entry: ${problems.join("; ")}`, { problems });
  }
  const server = resolved.server;
  if (!trusted) {
    if (server.transport === "stdio") return refused(`Refused server "${name}": untrusted servers must be http(s) URLs, not commands`);
    const refusal = await checkUntrustedUrl(server.url, context.resolveAll);
    if (refusal) return refused(refusal.message, refusal.details);
  }
  return { ok: true, entry: server };
}
