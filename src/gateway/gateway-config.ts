/**
 * tools.json's `profiles` (named views of the registry a served client gets: include/exclude,
 * renames, description overrides, pinned tools, search-first) and `identity` (the OAuth issuer and
 * audience a served endpoint accepts JWTs from, and per-principal limits). Checked strictly: the
 * keys are a contract, and a view that silently shows more than meant is a leak.
 */
import { z } from "zod";
import type { ConfigSectionContext } from "../core/plugin-config.js";
import { PLUGIN_TOOL_NAME_PATTERN, RESERVED_TOOL_NAMES } from "../core/tool-names.js";
import { toolPatternProblem } from "./tool-patterns.js";

/** A profile's name: it is a URL path segment (`/mcp/p/<name>`). */
export const PROFILE_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

const toolName = z.string().regex(PLUGIN_TOOL_NAME_PATTERN, "Expected a tool name (letters, digits, _ . -; at most 128)");

export const profileSchema = z
  .strictObject({
    include: z.array(z.string()).optional().describe("Tools the profile shows: tool names, server names (all their tools) or patterns with *. Default: every tool."),
    exclude: z.array(z.string()).optional().describe("Tools the profile hides, written as include; wins over include."),
    rename: z.record(toolName, toolName).optional().describe("Tools shown under another name: { registry name: shown name }."),
    descriptions: z.record(toolName, z.string().min(1)).optional().describe("Descriptions shown instead of the tool's own: { registry name: description }."),
    pinned: z.array(toolName).optional().describe("Under searchFirst, the tools listed besides search_tools and call_tool."),
    searchFirst: z.boolean().optional().describe("List only search_tools, call_tool and the pinned tools (when the registry has them); every tool of the profile stays callable."),
  })
  .describe("A named view of the registry, served at /mcp/p/<name>.");

export const profilesSchema = z.record(z.string(), profileSchema).describe("Named views of the registry for served clients (docs/identity.md).");

export type ProfileConfig = z.infer<typeof profileSchema>;

/** A profile with defaults applied: plain JSON. */
export interface ResolvedProfile {
  include: string[] | null;
  exclude: string[];
  rename: Record<string, string>;
  descriptions: Record<string, string>;
  pinned: string[];
  searchFirst: boolean;
}

export const identityConfigSchema = z
  .strictObject({
    oauth: z
      .strictObject({
        issuer: z.string().regex(/^https?:\/\/[^\s/]+/, "Expected the issuer's http(s) URL").describe("The authorization server's issuer URL; its JWKS is found from its metadata."),
        audience: z.string().min(1).describe("The audience (`aud`) a token must name: this server's resource identifier."),
      })
      .optional()
      .describe("Accept JWT bearer tokens from this issuer (OAuth 2.1 resource server)."),
    limits: z
      .strictObject({
        callsPerMinute: z.number().int().min(1).optional().describe("Calls one principal may start per minute."),
        concurrentCalls: z.number().int().min(1).optional().describe("Calls one principal may have running at once."),
      })
      .optional()
      .describe("Per-principal limits; past one, a call is answered RATE_LIMITED with a retry-after."),
  })
  .describe("Who may call a served endpoint (docs/identity.md).");

export type IdentityConfig = z.infer<typeof identityConfigSchema>;

/** One profile's patterns and renames checked, with its problems reported at their place. */
function resolveProfile(name: string, profile: ProfileConfig, context: ConfigSectionContext): ResolvedProfile {
  if (!PROFILE_NAME_PATTERN.test(name)) context.report([name], `Profile name "${name}" must be 1-64 letters, digits, _ or - (it is a URL path segment)`, { atKey: true });
  for (const key of ["include", "exclude"] as const) {
    (profile[key] ?? []).forEach((pattern, index) => {
      const problem = toolPatternProblem(pattern);
      if (problem) context.report([name, key, index], problem);
    });
  }
  const shownBy = new Map<string, string>();
  for (const [from, to] of Object.entries(profile.rename ?? {})) {
    const clash = shownBy.get(to);
    if ((RESERVED_TOOL_NAMES as readonly string[]).includes(to)) context.report([name, "rename", from], `Cannot rename "${from}" to "${to}": that is a built-in tool's name`);
    else if (clash !== undefined) context.report([name, "rename", from], `Cannot rename "${from}" to "${to}": "${clash}" is shown under that name too`);
    shownBy.set(to, from);
  }
  return {
    include: profile.include ?? null,
    exclude: profile.exclude ?? [],
    rename: { ...profile.rename },
    descriptions: { ...profile.descriptions },
    pinned: profile.pinned ?? [],
    searchFirst: profile.searchFirst === true,
  };
}

/** tools.json's `profiles`, each checked; `{}` when absent. */
export function resolveProfiles(written: Record<string, ProfileConfig> | undefined, context: ConfigSectionContext): Record<string, ResolvedProfile> {
  const resolved: Record<string, ResolvedProfile> = {};
  for (const [name, profile] of Object.entries(written ?? {})) resolved[name] = resolveProfile(name, profile, context);
  return resolved;
}
