/**
 * Whether one tool of one server may enter the registry under the server's policy and the lock
 * file, and if not, why — in words a person can act on.
 */
import type { TrustPolicy } from "../config/mcp-server-schema.js";
import type { ToolErrorInfo } from "../../../core/plugin-contract.js";
import type { ServerTool } from "../tool-definitions.js";
import { describeToolChange, type ToolChange } from "./describe-tool-change.js";
import type { LockedServer } from "./trust-lock-file.js";
import type { QuarantineReason } from "./trust-events.js";
import { fingerprintTool, type LockedTool } from "./tool-fingerprint.js";
import { cliInvocation } from "../../../core/cli-invocation.js";

export type Verdict = { usable: true } | ({ usable: false; reason: QuarantineReason } & Partial<ToolChange>);

/**
 * @example
 * judgeTool("pin", lockedServer, serverTool, fingerprintTool(serverTool)); // { usable: false, reason: "changed", changed: ["description"], descriptionDiff: "- …\n+ …" }
 */
export function judgeTool(policy: TrustPolicy, locked: LockedServer | undefined, tool: ServerTool, current: LockedTool = fingerprintTool(tool)): Verdict {
  if (policy === "trust") return { usable: true };
  if (locked === undefined) return { usable: false, reason: "server-pending" };
  if (!locked.approved) return { usable: false, reason: "server-revoked" };
  const approved = locked.tools.get(tool.tool);
  if (approved === undefined) return { usable: false, reason: "new-tool" };
  if (approved.fingerprint === current.fingerprint) return { usable: true };
  return { usable: false, reason: "changed", ...describeToolChange(approved, current) };
}

const REASONS: Record<QuarantineReason, (server: string) => string> = {
  "server-pending": (server) => `server "${server}" has not been approved yet`,
  "server-revoked": (server) => `approval of server "${server}" was revoked`,
  "new-tool": (server) => `it is new on server "${server}" since its tools were approved`,
  changed: () => "it changed since it was approved",
};

/** How to approve: the CLI for mcp.json's servers; the library call for servers added at run time (another process cannot see them). */
export function approveHint(target: string, source: "config" | "runtime"): string {
  return source === "config" ? `${cliInvocation()} tools approve ${target}` : `executor.approveTools(${JSON.stringify(target)})`;
}

/** The `TOOL_QUARANTINED` answer to a call of a held tool. */
export function quarantinedError(tool: ServerTool, verdict: Extract<Verdict, { usable: false }>, source: "config" | "runtime"): ToolErrorInfo {
  const name = tool.definition.name;
  const target = verdict.reason === "server-pending" || verdict.reason === "server-revoked" ? tool.server : name;
  const approve = approveHint(target, source);
  const parts = verdict.changed?.length ? ` (changed: ${verdict.changed.join(", ")})` : "";
  const diff = verdict.descriptionDiff === undefined ? "" : `\n${verdict.descriptionDiff}`;
  return {
    code: "TOOL_QUARANTINED",
    message: `Tool "${name}" is quarantined: ${REASONS[verdict.reason](tool.server)}${parts}. Review it with \`${cliInvocation()} tools review\`, then approve it with: ${approve}${diff}`,
    details: {
      server: tool.server,
      tool: tool.tool,
      reason: verdict.reason,
      ...(verdict.changed === undefined ? {} : { changed: verdict.changed }),
      ...(verdict.descriptionDiff === undefined ? {} : { descriptionDiff: verdict.descriptionDiff }),
      approve,
    },
  };
}
