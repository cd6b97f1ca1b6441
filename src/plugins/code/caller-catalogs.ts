/**
 * Code mode as a served caller sees it (docs/identity.md): the catalog its sandbox gets (`tools`,
 * `search_tools`, `describe_tool`) and code_execution's description hold only the tools the
 * caller's access lets it see, under its profile's names and descriptions. A view is built on first
 * use per view key (profile, scopes, tier: `CallerAccess.viewKey`) and kept until the tools change,
 * so a run builds nothing. A tool renamed by the profile is addressed by its new name on `local`.
 * Tools the view hides stay in the catalog's `hidden` index: a call naming one reaches the
 * executor, which refuses it and logs the refusal.
 */
import type { CallerAccess } from "../../core/caller-info.js";
import type { ToolDefinition } from "../../core/plugin-contract.js";
import { buildToolCatalog, indexTools, type ToolCatalog } from "./tool-catalog.js";

/** Views kept at once; the oldest goes first (keys, scopes and profiles rarely make more). */
const MAX_VIEWS = 64;

export interface CallerCatalogs {
  /** The catalog of a run by a caller with `access`; without one, the whole registry's. */
  catalogFor(access: CallerAccess | undefined): ToolCatalog;
  /** code_execution's description as a caller with `access` reads it. */
  descriptionFor(access: CallerAccess): string;
  /** The tools changed: every view is built again on next use. */
  invalidate(): void;
}

export interface CallerCatalogOptions {
  /** Every tool of the registry (the plugin context's). */
  listTools(): readonly ToolDefinition[];
  /** Registry names code may not call (`codeExecution.excludeTools`). */
  exclude: readonly string[];
  /** code_execution's description for these tools. */
  describe(tools: readonly ToolDefinition[]): string;
}

interface View {
  /** The tools the caller sees, as it sees them, and the registry name each stands for. */
  tools: ToolDefinition[];
  registryNames: Map<string, string>;
  catalog?: ToolCatalog;
  description?: string;
}

/** The registry's tools through `access`: hidden ones left out, renamed ones on `local` under their new name. */
function viewOf(tools: readonly ToolDefinition[], access: CallerAccess): Omit<View, "catalog" | "description"> {
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const listed = tools.map((tool) => ({ name: tool.name, description: tool.description, ...(tool.annotations === undefined ? {} : { annotations: tool.annotations }), registryName: tool.name }));
  const registryNames = new Map<string, string>();
  const viewed = access.view(listed, { searchFirst: false }).map((shown): ToolDefinition => {
    const original = byName.get(shown.registryName)!;
    registryNames.set(shown.name, original.name);
    if (shown.name === original.name) return shown.description === original.description ? original : { ...original, description: shown.description };
    const { server: _server, ...local } = original;
    return { ...local, name: shown.name, description: shown.description };
  });
  return { tools: viewed, registryNames };
}

/**
 * @example
 * const catalogs = createCallerCatalogs({ listTools: context.listTools, exclude: [], describe });
 * const catalog = catalogs.catalogFor(callOptions.caller?.access);
 */
export function createCallerCatalogs(options: CallerCatalogOptions): CallerCatalogs {
  const excluded = new Set(options.exclude);
  let version = 0;
  let whole: ToolCatalog | undefined;
  let views = new Map<string, View>();
  let unkeyed = new WeakMap<CallerAccess, View>();
  const wholeCatalog = () => (whole ??= buildToolCatalog(options.listTools(), options.exclude, ++version));
  const viewFor = (access: CallerAccess): View => {
    const key = access.viewKey;
    let view = key === undefined ? unkeyed.get(access) : views.get(key);
    if (view !== undefined) return view;
    view = viewOf(options.listTools().filter((tool) => !excluded.has(tool.name)), access);
    if (key === undefined) unkeyed.set(access, view);
    else {
      if (views.size >= MAX_VIEWS) views.delete(views.keys().next().value!);
      views.set(key, view);
    }
    return view;
  };
  const buildCatalog = (view: View): ToolCatalog => {
    const catalog = buildToolCatalog(view.tools, options.exclude, ++version);
    // The executor's ranking and old code name tools by registry name: a renamed tool is found by it too.
    const byName = new Map(catalog.byName);
    for (const entry of catalog.entries) {
      const registryName = view.registryNames.get(entry.name);
      if (registryName !== undefined && registryName !== entry.name) byName.set(registryName, entry);
    }
    const seen = new Set(view.registryNames.values());
    return { ...catalog, byName, hidden: indexTools(wholeCatalog().entries.filter((entry) => !seen.has(entry.name))) };
  };
  return {
    catalogFor(access) {
      if (access === undefined) return wholeCatalog();
      const view = viewFor(access);
      return (view.catalog ??= buildCatalog(view));
    },
    descriptionFor(access) {
      const view = viewFor(access);
      return (view.description ??= options.describe(view.tools));
    },
    invalidate() {
      whole = undefined;
      views = new Map();
      unkeyed = new WeakMap();
    },
  };
}
