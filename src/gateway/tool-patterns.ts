/**
 * The names and patterns profiles and key scopes are written with: a tool's registry name
 * (`github__create_issue`), a server's name (`github`: every `github__…` tool), or a pattern with
 * `*` for any run of characters (`github__list_*`). Nothing else: a pattern is not a regular expression.
 */
import { TOOL_NAME_SEPARATOR } from "../core/tool-names.js";

/** What a pattern may contain: MCP's tool-name characters and `*`. */
export const TOOL_PATTERN_SYNTAX = /^[A-Za-z0-9_.*-]{1,128}$/;

/** Why `pattern` is not a valid tool pattern, or undefined when it is. */
export function toolPatternProblem(pattern: string): string | undefined {
  if (TOOL_PATTERN_SYNTAX.test(pattern)) return undefined;
  return `"${pattern}" is not a tool pattern: use a tool name, a server name or * as a wildcard (letters, digits, _ . - and *, at most 128)`;
}

/** A matcher for a list of patterns: true for a tool name any of them names. */
export function compileToolPatterns(patterns: readonly string[]): (toolName: string) => boolean {
  const tests = patterns.map((pattern) => {
    if (pattern.includes("*")) {
      const source = pattern.split("*").map((part) => part.replace(/[.]/g, "\\.")).join(".*");
      const expression = new RegExp(`^${source}$`);
      return (name: string) => expression.test(name);
    }
    // A plain word names the tool itself, or a server and all its tools.
    return (name: string) => name === pattern || name.startsWith(pattern + TOOL_NAME_SEPARATOR);
  });
  return (toolName) => tests.some((test) => test(toolName));
}
