/**
 * tools.json's `profiles` (named views of the registry a served client gets: include/exclude,
 * renames, description overrides, pinned tools, search-first) and `identity` (the OAuth issuer and
 * audience a served endpoint accepts JWTs from, and per-principal limits). Checked strictly: the
 * keys are a contract, and a view that silently shows more than meant is a leak.
 */
import type { ConfigSectionContext } from "../core/plugin-config.js";
import { PLUGIN_TOOL_NAME_PATTERN, RESERVED_TOOL_NAMES } from "../core/tool-names.js";
import { toolPatternProblem } from "./tool-patterns.js";
import type { IdentityConfig, ProfileConfig } from "./gateway-config-schemas.js";

export type { IdentityConfig, ProfileConfig };

/** A profile's name: it is a URL path segment (`/mcp/p/<name>`). */
export const PROFILE_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** A profile with defaults applied: plain JSON. */
export interface ResolvedProfile {
  include: string[] | null;
  exclude: string[];
  rename: Record<string, string>;
  descriptions: Record<string, string>;
  pinned: string[];
  searchFirst: boolean;
}


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
