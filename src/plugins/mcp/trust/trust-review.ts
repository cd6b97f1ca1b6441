/** What `reviewTools()` answers: each server's policy and tools, with what is held and why. */
import type { TrustPolicy } from "../config/mcp-server-schema.js";
import type { McpServerEntry } from "../config/resolve-mcp-server.js";
import type { ServerTool } from "../tool-definitions.js";
import type { ErrorCode } from "../../../core/errors/error-codes.js";
import type { HygieneWarning } from "./description-hygiene.js";
import type { ToolChange } from "./describe-tool-change.js";
import type { QuarantineReason } from "./trust-events.js";
import type { UnmatchedPattern } from "./tool-filter.js";

/** One server as trust sees it: its entry and the tools it lists now. */
export interface TrustServerView {
  entry: McpServerEntry;
  source: "config" | "runtime";
  tools: readonly ServerTool[];
  connected: boolean;
}

/** One tool of a server in `reviewTools()`: usable or held, and why. */
export interface ToolReview extends Partial<ToolChange> {
  /** The executor's name of the tool (`server__tool`). */
  name: string;
  /** The server's own name of it. */
  tool: string;
  /** `usable`: in the registry; `quarantined`: held, see `reason`. */
  status: "usable" | "quarantined";
  reason?: QuarantineReason;
  description: string;
  /** Description hygiene (warnings, not blocks). */
  warnings: HygieneWarning[];
}

/** One server in `reviewTools()`: its policy, approval and tools. */
export interface ServerReview {
  server: string;
  source: "config" | "runtime";
  policy: TrustPolicy;
  /** `trusted`: policy "trust"; `approved`: in the lock file; `pending`: never approved; `revoked`. */
  approval: "trusted" | "approved" | "pending" | "revoked";
  /** False when its tools are not known now (not connected): they are reviewed once it is. */
  connected: boolean;
  tools: ToolReview[];
  /** `includeTools` / `excludeTools` patterns that match none of its tools. */
  unmatchedPatterns: UnmatchedPattern[];
  /** The command (or call, for a server added at run time) that approves what is held here. */
  approve?: string;
}

/**
 * `reviewTools()`'s answer: every server's trust state and tools.
 *
 * @example
 * const review = executor.reviewTools();
 * for (const server of review.servers) for (const tool of server.tools) if (tool.status === "quarantined") console.log(tool.name, tool.reason);
 */
export interface TrustReview {
  /** The lock file's absolute path. */
  lockFile: string;
  servers: ServerReview[];
  /** Tools held out of the registry, over all servers. */
  quarantined: number;
}

/** The answer to `approveTools` / `revokeTools`. */
export type TrustDecisionResult =
  | { ok: true; action: "approve" | "revoke"; server: string; tools: string[] }
  | { ok: false; error: { code: Extract<ErrorCode, "INVALID_INPUT" | "TOOL_NOT_FOUND" | "SERVICE_UNAVAILABLE" | "CONFIG_INVALID" | "EXECUTOR_CLOSED">; message: string; details?: Record<string, unknown> } };
