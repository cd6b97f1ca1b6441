/**
 * A server's `includeTools` / `excludeTools` applied to its tool list before anything else sees it:
 * a tool left out is never routed, listed, described to a model or fingerprinted. A pattern that
 * matches none of the server's tools is reported once (it is usually a typo, and a typo in a deny
 * list fails open).
 */
import type { McpServerEntry } from "../config/resolve-mcp-server.js";
import type { ServerTool } from "../tool-definitions.js";
import { matchesToolPattern } from "./tool-pattern.js";

/** An `includeTools` / `excludeTools` pattern that matches none of the server's tools. */
export interface UnmatchedPattern {
  key: "includeTools" | "excludeTools";
  pattern: string;
}

const matchesAny = (patterns: readonly string[], name: string) => patterns.some((pattern) => matchesToolPattern(pattern, name));

/**
 * The filter of one server entry, or `undefined` when it lists no patterns. `onUnmatched` hears, for
 * each non-empty list, the patterns that match no tool now, and which of them are newly so.
 *
 * @example
 * const select = createToolFilter(entry, (unmatched) => warn(unmatched));
 * const kept = select?.(listed) ?? listed;
 */
export function createToolFilter(entry: McpServerEntry, onUnmatched: (current: UnmatchedPattern[], fresh: UnmatchedPattern[]) => void): ((tools: ServerTool[]) => ServerTool[]) | undefined {
  const include = entry.includeTools;
  const exclude = entry.excludeTools;
  if (include === undefined && exclude.length === 0) return undefined;
  const reported = new Set<string>();
  return (tools) => {
    if (tools.length > 0) {
      const current: UnmatchedPattern[] = [];
      const fresh: UnmatchedPattern[] = [];
      const check = (key: UnmatchedPattern["key"], patterns: readonly string[]) => {
        for (const pattern of patterns) {
          const id = `${key}\0${pattern}`;
          if (tools.some((tool) => matchesToolPattern(pattern, tool.tool))) {
            reported.delete(id);
            continue;
          }
          current.push({ key, pattern });
          if (!reported.has(id)) fresh.push({ key, pattern });
          reported.add(id);
        }
      };
      check("includeTools", include ?? []);
      check("excludeTools", exclude);
      onUnmatched(current, fresh);
    }
    return tools.filter((tool) => (include === undefined || matchesAny(include, tool.tool)) && !matchesAny(exclude, tool.tool));
  };
}
