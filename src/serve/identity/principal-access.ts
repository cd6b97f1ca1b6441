/**
 * A principal's access as the executor asks it (`CallerInfo.access`): the profile's view (what is
 * listed, under which names and descriptions), the principal's scopes and tier, and its limits,
 * applied the same way to every call it makes — direct, `call_tool`, code mode, saved tools.
 */
import type { CallerAccess, ToolDefinition } from "../../plugin.js";
import { compileToolPatterns, type ResolvedProfile } from "../../config.js";
import { isDispatcher, META_TOOLS, tierAllows, toolTier, type Principal } from "./principal.js";
import type { PrincipalLimits } from "./principal-limits.js";

type Listed = { name: string; description: string; annotations?: ToolDefinition["annotations"] };

export interface AccessOptions {
  principal: Principal;
  /** The profile's name and settings, when served through one. */
  profile?: { name: string; settings: ResolvedProfile };
  limits?: PrincipalLimits;
  /** Whether a listed tool is a saved tool (a listing does not say which plugin a tool is of). */
  isSavedTool?(name: string): boolean;
}

const SEARCH_FIRST_TOOLS = ["search_tools", "call_tool"];

/**
 * @example
 * const access = createPrincipalAccess({ principal, profile: { name: "readers", settings } });
 * await executor.callTool(name, args, { caller: { ...caller, access } });
 */
export function createPrincipalAccess({ principal, profile, limits, isSavedTool = () => false }: AccessOptions): CallerAccess {
  const settings = profile?.settings;
  const included = settings?.include ? compileToolPatterns(settings.include) : () => true;
  const excluded = compileToolPatterns(settings?.exclude ?? []);
  const inScope = principal.scopes.length === 0 ? () => true : compileToolPatterns(principal.scopes);
  const renames = settings?.rename ?? {};
  const shown = new Map(Object.entries(renames).map(([from, to]) => [to, from]));
  /** Shown names another tool of the registry already has: the rename gives way (see view). */
  let clashing = new Set<string>();

  const inProfile = (name: string) => !excluded(name) && (META_TOOLS.has(name) || included(name));
  const refusal = (definition: Listed, plugin: string | undefined): string | undefined => {
    if (!inProfile(definition.name)) return "hidden";
    if (isDispatcher(definition, plugin) || META_TOOLS.has(definition.name)) return undefined;
    if (!inScope(definition.name)) return `"${definition.name}" is outside the scopes of ${principal.kind} "${principal.id}"`;
    const tier = toolTier(definition.annotations);
    if (!tierAllows(principal.tier, tier)) return `"${definition.name}" is a ${tier} tool and ${principal.kind} "${principal.id}" has the ${principal.tier} tier`;
    return undefined;
  };

  return {
    principal: { id: principal.id, kind: principal.kind },
    ...(profile === undefined ? {} : { profile: profile.name }),
    // What decides the view: principals with the same profile, scopes and tier share one (code mode keeps its declarations by it).
    viewKey: JSON.stringify([profile?.name ?? null, settings ?? null, principal.scopes, principal.tier]),
    registryName: (name) => (clashing.has(name) ? name : (shown.get(name) ?? name)),
    admit({ definition, plugin, topLevel }) {
      const why = refusal(definition, plugin);
      if (why === "hidden") return { ok: false, error: { code: "TOOL_NOT_FOUND", message: `No tool named "${renames[definition.name] ?? definition.name}"` } };
      if (why !== undefined) return { ok: false, error: { code: "FORBIDDEN", message: `Forbidden: ${why}` } };
      if (!topLevel || limits === undefined) return { ok: true, release: () => undefined };
      return limits.admit(principal.id).then((verdict) => (verdict.ok ? verdict : { ok: false, error: { code: "RATE_LIMITED", message: verdict.message, details: { retryAfterMs: verdict.retryAfterMs } } }));
    },
    view<Tool extends Listed>(tools: readonly Tool[], { searchFirst = settings?.searchFirst ?? false } = {}): Tool[] {
      const visible = tools.filter((tool) => refusal(tool, isSavedTool(tool.name) ? "code" : undefined) === undefined);
      const names = new Set(visible.map((tool) => tool.name));
      clashing = new Set([...shown.keys()].filter((to) => names.has(to) && !Object.hasOwn(renames, to)));
      const listed = searchFirst && settings ? visible.filter((tool) => SEARCH_FIRST_TOOLS.includes(tool.name) || settings.pinned.includes(tool.name)) : visible;
      return listed.map((tool) => {
        const name = renames[tool.name] !== undefined && !clashing.has(renames[tool.name]!) ? renames[tool.name]! : tool.name;
        const description = settings?.descriptions[tool.name];
        return name === tool.name && description === undefined ? tool : { ...tool, name, ...(description === undefined ? {} : { description }) };
      });
    },
  };
}
