/**
 * `toolexec tools review`, `tools approve <target>` and `tools revoke <target>`: tool trust from the
 * command line (docs/tool-trust.md). They connect to every MCP server, as `servers` does; approve and
 * revoke write the lock file and the project's execution log.
 */
import type { CommandContext } from "./command-context.js";
import { selectProjectFiles } from "./project-options.js";
import { withExecutor } from "./with-executor.js";

/** Exit 1 while anything is quarantined, so a CI step can insist that every tool is approved. */
export async function runToolsReview(context: CommandContext): Promise<number> {
  const project = selectProjectFiles(context.values, context.cwd, context.command);
  const { formatTrustReview } = await import("./format-trust-review.js");
  const review = await withExecutor(context, project, { logDir: false }, async (executor) => executor.reviewTools());
  context.output.out(context.values.json ? JSON.stringify(review, null, 2) : formatTrustReview(review));
  return review.quarantined === 0 && !review.servers.some((server) => server.approval === "pending" || server.approval === "revoked") ? 0 : 1;
}

async function decide(context: CommandContext, action: "approve" | "revoke"): Promise<number> {
  const target = context.positionals[0]!;
  const project = selectProjectFiles(context.values, context.cwd, context.command);
  const decision = await withExecutor(context, project, {}, (executor) => (action === "approve" ? executor.approveTools(target) : executor.revokeTools(target)));
  if (context.values.json) context.output.out(JSON.stringify(decision, null, 2));
  else if (decision.ok) {
    const verb = action === "approve" ? "Approved" : "Revoked";
    const what = decision.server === target ? `server "${decision.server}"${decision.tools.length === 0 ? "" : ` (${decision.tools.join(", ")})`}` : decision.tools.join(", ");
    context.output.out(`${verb} ${what}`);
  } else context.output.err(`${decision.error.code}: ${decision.error.message}`);
  return decision.ok ? 0 : 1;
}

export const runToolsApprove = (context: CommandContext) => decide(context, "approve");
export const runToolsRevoke = (context: CommandContext) => decide(context, "revoke");
