/** Human-readable text for the CLI: tool lists, results, config problems, server states. */
import path from "node:path";
import { formatConfigIssue, type ConfigIssue, type JsonSchema, type ToolInfo, type ToolResult } from "../index.js";
import type { McpServerInfo } from "../mcp.js";
import { cliInvocation } from "../core/cli-invocation.js";

function typeOf(schema: JsonSchema | undefined): string {
  if (!schema) return "any";
  if (Array.isArray(schema.enum)) {
    const shown = schema.enum.slice(0, 6).map((value) => JSON.stringify(value)).join(" | ");
    return schema.enum.length > 6 ? `${shown} | ... (${schema.enum.length} values)` : shown;
  }
  // Optional[bool] and other unions (pydantic, FastMCP, zod write them as anyOf): each member's type.
  const members = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (Array.isArray(members) && schema.type === undefined) return [...new Set(members.map((member) => typeOf(member)))].join(" | ");
  const type = schema.type;
  if (type === "array") return `${typeOf(schema.items as JsonSchema | undefined)}[]`;
  if (Array.isArray(type)) return type.join(" | ");
  return typeof type === "string" ? type : "any";
}

/** `path*: string, columns: string[]` — required arguments starred. */
export function formatArguments(schema: JsonSchema): string {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const parts = Object.entries(properties).map(([name, property]) => `${name}${required.has(name) ? "*" : ""}: ${typeOf(property)}`);
  return parts.length === 0 ? "(none)" : parts.join(", ");
}

export function formatToolList(tools: ToolInfo[]): string {
  if (tools.length === 0) return "No tools. Add some to tools.json (see docs/config.md).";
  const width = Math.min(32, Math.max(...tools.map((tool) => tool.name.length)));
  const lines = tools.map((tool) => {
    const summary = tool.description.split(/(?<=\.)\s/)[0]!.replace(/\s+/g, " ");
    const shortened = summary.length > 100 ? `${summary.slice(0, 97)}...` : summary;
    return `${tool.name.padEnd(width)}  ${shortened}\n${" ".repeat(width)}  args: ${formatArguments(tool.inputSchema)}`;
  });
  return `${lines.join("\n")}\n\n${tools.length} tool${tools.length === 1 ? "" : "s"} (* = required argument)`;
}

export function formatValue(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value, null, 2);
}

/** Failure text for stderr: code and message, then the most useful details. */
export function formatFailure(result: Extract<ToolResult, { ok: false }>): string {
  const lines = [`error ${result.error.code}: ${result.error.message}`];
  const details = result.error.details ?? {};
  // A script's stderr, and a Python function's traceback: where it failed is in their last lines.
  for (const key of ["stderr", "traceback"] as const) {
    const text = typeof details[key] === "string" ? details[key].trim() : "";
    if (text !== "") lines.push(`${key} (last lines):`, ...text.split("\n").slice(-10).map((line) => `  ${line}`));
  }
  lines.push(`execution id: ${result.executionId}`);
  return lines.join("\n");
}

/**
 * Issues as the terminal shows them. A config file outside the project (`--mcp-config
 * ~/.config/Claude/claude_desktop_config.json`) is named by its absolute path, not `../../…`.
 */
export function displayIssues(issues: readonly ConfigIssue[], root: string): ConfigIssue[] {
  return issues.map((issue) => (issue.file.startsWith("..") ? { ...issue, file: path.resolve(root, issue.file) } : issue));
}

export function formatIssues(issues: readonly ConfigIssue[], root: string): string {
  return displayIssues(issues, root).map((issue) => `  ${formatConfigIssue(issue)}`).join("\n");
}

/** States whose tools are listed: up, or not running by design (lazy, idle) and started by the next call. */
const SERVING_STATES = new Set<McpServerInfo["state"]>(["connected", "stopped", "idle"]);

/** Enabled servers whose tools are missing (not connected, nor stopped by design); disabled ones are the user's choice. */
export function serversWithoutTools(servers: readonly McpServerInfo[]): McpServerInfo[] {
  return servers.filter((server) => !SERVING_STATES.has(server.state) && server.state !== "disabled");
}

/** A warning naming each server whose tools are missing, with its state and last error; undefined when there is none. */
export function formatServerWarning(servers: readonly McpServerInfo[]): string | undefined {
  const missing = serversWithoutTools(servers);
  if (missing.length === 0) return undefined;
  const width = Math.max(...missing.map((server) => server.name.length));
  const rows = missing.map((server) => `  ${server.name.padEnd(width)}  ${server.state.padEnd(11)}  ${server.lastError?.message ?? "no answer yet"}`.trimEnd());
  const count = missing.length === 1 ? "1 MCP server is" : `${missing.length} MCP servers are`;
  return [`warning: ${count} not connected, so ${missing.length === 1 ? "its" : "their"} tools are missing:`, ...rows, `Run \`${cliInvocation()} servers\` for details.`].join("\n");
}

/** `12:00:03 (in 1.2 s)`: a coming moment, in local time and from now. */
function formatMoment(epochMs: number, now: number): string {
  const time = new Date(epochMs).toTimeString().slice(0, 8);
  return `${time} (in ${Math.max(0, (epochMs - now) / 1000).toFixed(1)} s)`;
}

/** One line per MCP server: name, state, transport, then tools, the next attempt, or the reason. */
export function formatServerList(servers: McpServerInfo[], now: number): string {
  if (servers.length === 0) return "No MCP servers. Add some to mcp.json (see docs/config.md).";
  const width = Math.min(32, Math.max(...servers.map((server) => server.name.length)));
  const lines = servers.map((server) => {
    const transport = server.connectedTransport ?? server.transport;
    const state = server.state === "needs-login" ? "needs login" : server.state;
    const head = `${server.name.padEnd(width)}  ${state.padEnd(11)}  ${transport.padEnd(5)}`;
    const key = server.configKey === undefined ? "" : `  (mcp.json key ${JSON.stringify(server.configKey)})`;
    if (server.state === "needs-login") return `${head}  run \`${cliInvocation()} auth login ${server.name}\``;
    if (server.state === "connected") return `${head}  ${server.tools.length} tool${server.tools.length === 1 ? "" : "s"}${key}`;
    const toolCount = `${server.tools.length} tool${server.tools.length === 1 ? "" : "s"}`;
    if (server.state === "stopped") return `${head}  ${toolCount} from its last run; lazy: the first call starts it${key}`;
    if (server.state === "idle") return `${head}  ${toolCount}; stopped while unused: the next call starts it${key}`;
    if (server.state === "installing") return `${head}  first start: its package runner may be downloading it; run again when it is done${key}`;
    if (server.state === "retrying") {
      const next = server.nextAttemptAt === undefined ? "" : `next attempt ${formatMoment(server.nextAttemptAt, now)}`;
      return `${head}  ${[next, server.lastError?.message].filter(Boolean).join(": ")}`;
    }
    if (server.state === "disabled") return `${head}  disabled in mcp.json${key}`;
    return `${head}  ${server.lastError?.message ?? ""}${key}`.trimEnd();
  });
  const connected = servers.filter((server) => server.state === "connected").length;
  const resting = servers.filter((server) => server.state === "stopped" || server.state === "idle").length;
  const summary = `${connected} of ${servers.length} server${servers.length === 1 ? "" : "s"} connected${resting === 0 ? "" : `, ${resting} stopped until a call needs ${resting === 1 ? "it" : "them"}`}`;
  return `${lines.join("\n")}\n\n${summary}`;
}
