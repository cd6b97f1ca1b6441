/**
 * The pipeline's side of a caller's access (`CallerInfo.access`): which access a call runs under
 * (a sub-call keeps its parent's, so no plugin can drop it), and what its log record says about
 * who made it and whether it was let through.
 */
import { createHash } from "node:crypto";
import type { AccessVerdict, CallerAccess, CallerInfo } from "../caller-info.js";
import type { PluginResult, ToolDefinition } from "../plugin-contract.js";
import { toolError, type ToolResult } from "../tool-result.js";

/**
 * The caller a call runs as: its own, else its parent's; a parent's access always wins, so a
 * sub-call cannot name a caller that reaches more than the call that made it.
 */
export function effectiveCaller(own: CallerInfo | undefined, parent: CallerInfo | undefined): CallerInfo | undefined {
  const caller = own ?? parent;
  const access = parent?.access;
  if (access === undefined || caller?.access === access) return caller;
  return { ...caller, access };
}

/** A session id as the log keeps it: an opaque digest that groups one client's calls and gives nothing away. */
export function sessionDigest(sessionId: string): string {
  return createHash("sha256").update(sessionId).digest("hex").slice(0, 16);
}

/** The caller's part of a call's log record: who, under which profile, and the decision. */
export function callerRecord(caller: CallerInfo | undefined, result: ToolResult, refused: boolean): Record<string, unknown> {
  if (caller === undefined) return {};
  const { name, version, sessionId, access } = caller;
  const shown = { name, version, ...(sessionId === undefined ? {} : { session: sessionDigest(sessionId) }) };
  if (access === undefined) return { caller: shown };
  return {
    caller: shown,
    principal: { id: access.principal.id, kind: access.principal.kind },
    ...(access.profile === undefined ? {} : { profile: access.profile }),
    decision: refused ? "refused" : "allowed",
    ...(refused && !result.ok ? { reason: result.error.code } : {}),
  };
}

/**
 * A missing tool's answer as a caller served through a profile gets it: a plain "no tool named" without the
 * registry's names or a "did you mean" (either could name a tool its view hides); a plugin's own
 * explanation of another kind (a server that needs a login) stays.
 */
export function missingForCaller(access: CallerAccess | undefined, name: string, explained: PluginResult): PluginResult {
  if (access?.profile === undefined || explained.ok || explained.error.code !== "TOOL_NOT_FOUND") return explained;
  return toolError("TOOL_NOT_FOUND", `No tool named "${name}"`);
}

/**
 * The caller's access asked before a leased tool runs: undefined when the call has no access to
 * ask (nearly all), else its verdict, a promise only when the access needs a shared count. A
 * refusal ends the call unrun; an admitted call's `release` is called when it ends.
 */
export function admitCall(call: { caller?: CallerInfo; parentExecutionId: string | undefined }, registered: { definition: ToolDefinition; owner: { name: string } }): AccessVerdict | Promise<AccessVerdict> | undefined {
  return call.caller?.access?.admit({ definition: registered.definition, plugin: registered.owner.name, topLevel: call.parentExecutionId === undefined });
}

export type { CallerAccess };
