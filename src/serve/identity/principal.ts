/**
 * Who a served request is, and what a tool's tier is. A principal's tier bounds what it may call,
 * judged from the tool's MCP annotations: `readOnlyHint` makes a tool `read`, `destructiveHint:
 * false` makes it `write`, anything else is `destructive` (MCP's defaults: a tool that says nothing
 * may destroy). Tools that only run other tools (code mode, `call_tool`, a saved tool) have no tier
 * of their own: every call they make is checked against the caller's.
 */
import type { ToolDefinition } from "../../plugin.js";

export const TIERS = ["read", "write", "destructive"] as const;
export type Tier = (typeof TIERS)[number];

export type PrincipalKind = "key" | "jwt" | "token" | "local";

export interface Principal {
  /** A key's id, a JWT's `sub`, `token` for the static token, `local` when no credential is needed. */
  id: string;
  kind: PrincipalKind;
  /** The tools it may reach: tool names, server names or patterns with `*`; empty: every tool. */
  scopes: string[];
  /** The most a tool it calls may do. */
  tier: Tier;
  /** The profile it is bound to (a key's), if any. */
  profile?: string;
  /** It may use the operator routes (`/metrics`, `/readyz`, the console's API): the static token, or a key or JWT with {@link OPERATOR_SCOPE}. */
  operator?: boolean;
}

/**
 * The scope that lets a key (`keys create --scope toolexec:operator`) or a JWT (`scope` claim) use
 * the operator routes. It names no tool (`:` is not a tool-name character): a key whose only scope
 * it is reaches no tool; add tool scopes (or `*`) for both.
 */
export const OPERATOR_SCOPE = "toolexec:operator";

/** Tools that run other tools: their sub-calls carry the caller's access, so the tools themselves are let through. */
const DISPATCHERS = new Set(["code_execution", "call_tool"]);

/** Built-in tools every view has unless a profile excludes them by name: finding, describing and reading results. */
export const META_TOOLS = new Set(["code_execution", "call_tool", "search_tools", "describe_tools", "read_result"]);

/** Whether a tool only dispatches to other tools (code mode's saved tools are the code plugin's tools without annotations). */
export function isDispatcher(definition: { name: string; annotations?: ToolDefinition["annotations"] }, plugin: string | undefined): boolean {
  return DISPATCHERS.has(definition.name) || (plugin === "code" && definition.annotations === undefined);
}

/**
 * @example
 * toolTier({ readOnlyHint: true }); // "read"
 * toolTier({ destructiveHint: false }); // "write"
 * toolTier(undefined); // "destructive"
 */
export function toolTier(annotations: ToolDefinition["annotations"]): Tier {
  if (annotations?.readOnlyHint === true) return "read";
  if (annotations?.destructiveHint === false) return "write";
  return "destructive";
}

/** Whether a principal of tier `allowed` may call a tool of tier `tool`. */
export const tierAllows = (allowed: Tier, tool: Tier): boolean => TIERS.indexOf(tool) <= TIERS.indexOf(allowed);

/** The principal of a request that needs no credential (loopback, nothing configured). */
export const LOCAL_PRINCIPAL: Principal = { id: "local", kind: "local", scopes: [], tier: "destructive" };
