/**
 * A built-in section's schema in two parts, so a well-formed project loads no zod at start
 * (issue 30): a check that vouches for values without zod, and the zod schema itself, imported on
 * demand. The section keeps the plugin contract's `schema`, readable once `loadSectionSchemas` has
 * run; the core runs it before any path that needs zod (a value not vouched for, a host plugin's
 * section whose resolver may `check`, the published JSON Schema). Host plugins' sections are plain
 * zod and stay so.
 */
import type { z } from "zod";
import type { PluginConfigSection } from "../plugin-config.js";
import { loadZodWording } from "./zod-wording.js";

export interface LazySchema {
  /**
   * True only for a value the schema certainly accepts and that the section's resolver resolves
   * without its schemas loaded; false: ask zod (which decides and words every problem).
   */
  isWellFormed(value: unknown): boolean;
  /** The zod schema, by ESM `import()`: the one zod instance host plugins' schemas share. */
  load(): Promise<z.ZodType>;
}

interface LazyState {
  lazy: LazySchema;
  loaded?: z.ZodType;
}

const LAZY = Symbol("toolexec.lazySchema");

type WithoutSchema<Section> = Section extends unknown ? Omit<Section, "schema"> : never;

/**
 * `section` with a lazy schema.
 *
 * @example
 * withLazySchema({ key: "toolSearch", resolve }, { isWellFormed: isWellFormedToolSearch, load: async () => (await import("./tool-search-config-schema.js")).toolSearchConfigSchema });
 */
export function withLazySchema<Section extends { schema: unknown }>(section: WithoutSchema<Section>, lazy: LazySchema): Section {
  const state: LazyState = { lazy };
  const { key, file } = section as { key?: string; file?: string | false };
  const name = key ?? String(file);
  return Object.defineProperties(section, {
    schema: {
      get() {
        if (state.loaded === undefined) throw new Error(`Internal error: the schema of the "${name}" section was read before loadSectionSchemas`);
        return state.loaded;
      },
    },
    [LAZY]: { value: state },
  }) as unknown as Section;
}

const lazyState = (section: PluginConfigSection): LazyState | undefined => (section as { [LAZY]?: LazyState })[LAZY];

export const isLazySection = (section: PluginConfigSection): boolean => lazyState(section) !== undefined;

/** Whether the section's schema accepts `value`: the fast check while its schema is not loaded (false: not vouched for). */
export function sectionAccepts(section: PluginConfigSection, value: unknown): boolean {
  const state = lazyState(section);
  if (state !== undefined && state.lazy.isWellFormed(value)) return true;
  if (state !== undefined && state.loaded === undefined) return false;
  return section.schema.safeParse(value).success;
}

/** Load every lazy schema of `sections` (and the wording of zod's issues), so each `schema` and `check` works. */
export async function loadSectionSchemas(sections: ReadonlyArray<{ section: PluginConfigSection }>): Promise<void> {
  await Promise.all([
    loadZodWording(),
    ...sections.map(async ({ section }) => {
      const state = lazyState(section);
      if (state !== undefined) state.loaded ??= await state.lazy.load();
    }),
  ]);
}
