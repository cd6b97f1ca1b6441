/**
 * Whether the host hears an event a plugin may emit, for the built-in plugins: code mode builds a
 * `code:start` and a `code:end` payload per run (a copy of the run's result, about 0.3 KB), which
 * most hosts never listen to. While start-up holds events, every event counts as heard (it is
 * delivered later). Internal: not part of the plugin contract; a context it does not know (a test's,
 * or a plugin started by hand) hears everything.
 */
import type { PluginContext } from "../plugin-contract.js";

type Hears = (event: string) => boolean;

/** By the context's `emit`, which stays the same function when the host adds a plugin's `config` to a copy of the context. */
const hearing = new WeakMap<object, Hears>();
const HEARS_ALL: Hears = () => true;

/** Set by the core on the context it hands plugins: returns `emit`, now known to hear as `hears` says. */
export function offerEventListening<Emit extends PluginContext["emit"]>(emit: Emit, hears: Hears): Emit {
  hearing.set(emit, hears);
  return emit;
}

/**
 * @example
 * const hears = eventListening(context);
 * if (hears("code:end")) context.emit("code:end", toCodeResult(result));
 */
export function eventListening(context: Pick<PluginContext, "emit">): Hears {
  return hearing.get(context.emit) ?? HEARS_ALL;
}
