/**
 * Two plugins with no tools (so not under src/plugins, whose plugins serve tools) that own the gateway's keys of tools.json — `profiles` and `identity` —
 * so every command checks them (`toolexec validate` too) and a served endpoint reads them, resolved
 * and following reloads, through `executor.pluginApi(...)`.
 */
import type { ExecutorPlugin } from "../core/plugin-contract.js";
import { identityConfigSchema, profilesSchema, resolveProfiles, type IdentityConfig, type ProfileConfig, type ResolvedProfile } from "./gateway-config.js";

export interface ProfilesApi {
  /** The profiles in force, by name. */
  profiles(): Readonly<Record<string, ResolvedProfile>>;
}

export interface IdentityApi {
  /** tools.json's `identity` in force (`{}` when absent). */
  identity(): IdentityConfig;
}

/** Owns tools.json's `profiles`. */
export const profilesPlugin: ExecutorPlugin<never, ProfilesApi, Record<string, ResolvedProfile>> = {
  name: "profiles",
  contractVersion: 2,
  config: { key: "profiles", schema: profilesSchema, resolve: (written, context) => resolveProfiles(written as Record<string, ProfileConfig> | undefined, context) },
  async start(_entries, context) {
    const profiles = context.config ?? {};
    return { listTools: () => [], callTool: async () => ({ ok: false, error: { code: "TOOL_NOT_FOUND", message: "profiles has no tools" } }), close: async () => {}, api: { profiles: () => profiles } };
  },
};

/** Owns tools.json's `identity`. */
export const identityPlugin: ExecutorPlugin<never, IdentityApi, IdentityConfig> = {
  name: "identity",
  contractVersion: 2,
  config: { key: "identity", schema: identityConfigSchema, resolve: (written) => written ?? {} },
  async start(_entries, context) {
    const identity = context.config ?? {};
    return { listTools: () => [], callTool: async () => ({ ok: false, error: { code: "TOOL_NOT_FOUND", message: "identity has no tools" } }), close: async () => {}, api: { identity: () => identity } };
  },
};
