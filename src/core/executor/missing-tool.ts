/**
 * What a call of a name the registry does not hold gets: a plugin may make the tool available
 * within the call's time (`resolveMissingTool`), else the call answers `TOOL_NOT_FOUND` with the
 * best explanation one can give (switched off, a plugin's own reason, the closest name).
 */
import { closestMatch, describeValue } from "../json/describe-value.js";
import type { CallToolOptions, PluginResult, ToolErrorInfo } from "../plugin-contract.js";
import { MAX_TOOL_NAME_LENGTH } from "../tool-names.js";
import { toolError } from "../tool-result.js";
import type { PluginHost } from "./plugin-host.js";

/** How many tool names a `TOOL_NOT_FOUND` result lists in `details.available` at most. */
const MAX_NAMED_TOOLS = 100;

export interface MissingToolSources {
  host: PluginHost;
  defaultTimeoutMs: number;
  /** Why a name is not in the registry when it is known but switched off (e.g. code_execution). */
  unavailableToolHint?(name: string): string | undefined;
}

/** The `TOOL_NOT_FOUND` result of a call of `name`. */
export function explainMissingTool(sources: MissingToolSources, name: string): PluginResult {
  const { host } = sources;
  // Large registries are named in part: an error result stays small whatever the registry's size.
  const names = [...host.tools.keys()];
  const available = names.length <= MAX_NAMED_TOOLS ? names : [...names.slice(0, MAX_NAMED_TOOLS), `… and ${names.length - MAX_NAMED_TOOLS} more`];
  const switchedOff = sources.unavailableToolHint?.(name);
  if (switchedOff !== undefined) return toolError("TOOL_NOT_FOUND", switchedOff, { available });
  // No tool has a longer name, and the edit distance costs name length × registry size: a 100 KB
  // name blocked the event loop 3.3 s against 200 tools. Such a name is cut in the message too.
  if (name.length > MAX_TOOL_NAME_LENGTH) return toolError("TOOL_NOT_FOUND", `No tool named ${describeValue(name)}: names are at most ${MAX_TOOL_NAME_LENGTH} characters`, { available });
  for (const instance of host.instances()) {
    let explained: ToolErrorInfo | undefined;
    try {
      explained = instance.explainMissingTool?.(name);
    } catch {
      explained = undefined;
    }
    if (explained !== undefined) return { ok: false, error: explained };
  }
  const hint = closestMatch(name, host.tools.keys());
  return toolError("TOOL_NOT_FOUND", `No tool named "${name}"${hint ? `; did you mean "${hint}"?` : ""}`, { available });
}

/**
 * Ask the plugins that can to make a missing tool available within the call's time (its timeout
 * and cancel); true once one did. Names no plugin claims cost only the asking.
 */
export async function resolveMissingTool(sources: MissingToolSources, name: string, options: CallToolOptions, caller = options.caller): Promise<boolean> {
  if (name.length > MAX_TOOL_NAME_LENGTH) return false;
  const resolvers = sources.host.instances().filter((instance) => instance.resolveMissingTool);
  if (resolvers.length === 0) return false;
  const timeout = AbortSignal.timeout(options.timeoutMs ?? sources.defaultTimeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  // A resolver that ignores the signal is not waited for past it.
  const stopped = new Promise<false>((resolve) => (signal.aborted ? resolve(false) : signal.addEventListener("abort", () => resolve(false), { once: true })));
  for (const instance of resolvers) {
    try {
      if (await Promise.race([instance.resolveMissingTool!(name, caller === undefined ? { signal } : { signal, caller }), stopped])) return true;
    } catch {
      // A throwing resolver is a tool that stays missing.
    }
    if (signal.aborted) return false;
  }
  return false;
}
