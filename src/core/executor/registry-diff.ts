/**
 * What changed between two registries: tools added, removed, and changed (same name, another
 * definition). Hosts get it with `tools:changed`, whatever caused the change (a reload, a server
 * that connected, an upstream `list_changed`).
 */
import type { ToolDefinition } from "../plugin-contract.js";

export interface RegistryDiff {
  added: string[];
  removed: string[];
  changed: string[];
}

/** Definitions compared as JSON: a plugin that restarts makes new objects for unchanged tools. */
function sameDefinition(left: ToolDefinition, right: ToolDefinition): boolean {
  if (left === right) return true;
  try {
    return JSON.stringify(left) === JSON.stringify(right);
  } catch {
    return false;
  }
}

/**
 * @example
 * diffRegistry(new Map([["a", a]]), new Map([["a", a2], ["b", b]])); // { added: ["b"], removed: [], changed: ["a"] } when a2 differs
 */
export function diffRegistry(before: ReadonlyMap<string, { definition: ToolDefinition }>, after: ReadonlyMap<string, { definition: ToolDefinition }>): RegistryDiff {
  const diff: RegistryDiff = { added: [], removed: [], changed: [] };
  for (const [name, tool] of after) {
    const previous = before.get(name);
    if (!previous) diff.added.push(name);
    else if (!sameDefinition(previous.definition, tool.definition)) diff.changed.push(name);
  }
  for (const name of before.keys()) if (!after.has(name)) diff.removed.push(name);
  return diff;
}

export const isEmptyDiff = (diff: RegistryDiff) => diff.added.length + diff.removed.length + diff.changed.length === 0;
