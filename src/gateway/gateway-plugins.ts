/**
 * Two plugins with no tools (so not under src/plugins, whose plugins serve tools) that own the gateway's keys of tools.json — `profiles` and `identity` —
 * so every command checks them (`toolexec validate` too) and a served endpoint reads them, resolved
 * and following reloads, through `executor.pluginApi(...)`.
 */
import { withLazySchema } from "../core/config/lazy-section-schema.js";
import type { ToolsKeySection } from "../core/plugin-config.js";
import type { ExecutorPlugin } from "../core/plugin-contract.js";
import { resolveProfiles, type IdentityConfig, type ProfileConfig, type ResolvedProfile } from "./gateway-config.js";

// Both keys are rare and their schemas are loaded whenever one is written (no fast check: zod decides).
const schemas = () => import("./gateway-config-schemas.js");

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
  config: withLazySchema<ToolsKeySection<Record<string, ProfileConfig>, Record<string, ResolvedProfile>>>(
    { key: "profiles", resolve: (written, context) => resolveProfiles(written, context) },
    { isWellFormed: () => false, load: async () => (await schemas()).profilesSchema },
  ),
  async start(_entries, context) {
    const profiles = context.config ?? {};
    return { listTools: () => [], callTool: async () => ({ ok: false, error: { code: "TOOL_NOT_FOUND", message: "profiles has no tools" } }), close: async () => {}, api: { profiles: () => profiles } };
  },
};

/** Owns tools.json's `identity`. */
export const identityPlugin: ExecutorPlugin<never, IdentityApi, IdentityConfig> = {
  name: "identity",
  contractVersion: 2,
  config: withLazySchema<ToolsKeySection<IdentityConfig, IdentityConfig>>({ key: "identity", resolve: (written) => written ?? {} }, { isWellFormed: () => false, load: async () => (await schemas()).identityConfigSchema }),
  async start(_entries, context) {
    const identity = context.config ?? {};
    return { listTools: () => [], callTool: async () => ({ ok: false, error: { code: "TOOL_NOT_FOUND", message: "identity has no tools" } }), close: async () => {}, api: { identity: () => identity } };
  },
};
