/** `toolexec tools review` as a person reads it: what is held on each server, why, and how to approve it. */
import type { ServerReview, ToolReview, TrustReview } from "../mcp.js";
import { cliInvocation } from "../core/cli-invocation.js";

const REASONS: Record<NonNullable<ToolReview["reason"]>, string> = {
  "server-pending": "server not approved yet",
  "server-revoked": "server approval revoked",
  "new-tool": "new since approval",
  changed: "changed since approval",
};

const indent = (text: string, prefix: string) => text.split("\n").map((line) => `${prefix}${line}`).join("\n");

function formatTool(tool: ToolReview): string[] {
  const lines = [`  ${tool.status === "quarantined" ? "✗" : "✓"} ${tool.name}${tool.reason ? ` — ${REASONS[tool.reason]}${tool.changed?.length ? ` (${tool.changed.join(", ")})` : ""}` : ""}`];
  if (tool.status === "quarantined" || tool.warnings.length > 0) {
    if (tool.descriptionDiff !== undefined) lines.push(indent(tool.descriptionDiff, "      "));
    else lines.push(indent(tool.description, "      "));
  }
  for (const warning of tool.warnings) lines.push(`      warning (${warning.kind}): ${warning.message}`);
  return lines;
}

function formatServer(server: ServerReview): string[] {
  const state = server.connected ? "" : ", not connected: its tools are reviewed once it is";
  const lines = [`${server.server} (policy ${server.policy}, ${server.approval}${state})`];
  for (const tool of server.tools) lines.push(...formatTool(tool));
  for (const { key, pattern } of server.unmatchedPatterns) lines.push(`  warning: "${key}" pattern "${pattern}" matches none of its tools`);
  if (server.approve !== undefined) lines.push(`  approve: ${server.approve}${server.tools.some((tool) => tool.status === "quarantined") ? `  (or one tool: ${cliInvocation()} tools approve <server__tool>)` : ""}`);
  return lines;
}

/**
 * @example
 * formatTrustReview(await executor.reviewTools());
 * // "docs (policy pin, approved)\n  ✗ docs__search — changed since approval (description)\n      - …\n      + …\n  approve: toolexec tools approve docs\n\n1 tool quarantined; lock file: /p/.toolexec/tools.lock.json"
 */
export function formatTrustReview(review: TrustReview): string {
  if (review.servers.length === 0) return "No MCP servers.";
  const blocks = review.servers.map((server) => formatServer(server).join("\n"));
  const summary = review.quarantined === 0 ? "Nothing quarantined" : `${review.quarantined} tool${review.quarantined === 1 ? "" : "s"} quarantined`;
  return `${blocks.join("\n\n")}\n\n${summary}; lock file: ${review.lockFile}`;
}
