/** One server's part of `reviewTools()`: its approval, and each tool's status, reason, diff and hygiene warnings. */
import { checkDescriptionHygiene } from "./description-hygiene.js";
import type { UnmatchedPattern } from "./tool-filter.js";
import type { LockedServer } from "./trust-lock-file.js";
import type { ServerReview, ToolReview, TrustServerView } from "./trust-review.js";
import { approveHint, judgeTool } from "./trust-verdict.js";

/**
 * @example
 * reviewServer(view, lock.get("docs"), []); // { server: "docs", policy: "pin", approval: "approved", tools: [...], ... }
 */
export function reviewServer(view: TrustServerView, locked: LockedServer | undefined, unmatchedPatterns: UnmatchedPattern[]): ServerReview {
  const { entry } = view;
  const approval = entry.trust === "trust" ? "trusted" : locked === undefined ? "pending" : locked.approved ? "approved" : "revoked";
  const tools = view.tools.map((tool): ToolReview => {
    const { usable, ...why } = judgeTool(entry.trust, locked, tool);
    return { name: tool.definition.name, tool: tool.tool, status: usable ? "usable" : "quarantined", ...why, description: tool.definition.description, warnings: checkDescriptionHygiene(tool.definition) };
  });
  const held = approval === "pending" || approval === "revoked" || tools.some((tool) => tool.status === "quarantined");
  return {
    server: entry.name,
    source: view.source,
    policy: entry.trust,
    approval,
    connected: view.connected,
    tools,
    unmatchedPatterns,
    ...(held ? { approve: approveHint(entry.name, view.source) } : {}),
  };
}
