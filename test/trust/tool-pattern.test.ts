/** includeTools / excludeTools globs: `*` and `?` only, every other character literal, no backtracking blow-up. */
import { describe, expect, it } from "vitest";
import { matchesToolPattern } from "../../src/plugins/mcp/trust/tool-pattern.js";

describe("matchesToolPattern", () => {
  it.each([
    ["search", "search", true],
    ["search", "search_all", false],
    ["*", "", true],
    ["*", "anything", true],
    ["delete_*", "delete_page", true],
    ["delete_*", "undelete_page", false],
    ["*delete*", "undelete_page", true],
    ["get_?", "get_a", true],
    ["get_?", "get_ab", false],
    ["a*b*c", "aXbYc", true],
    ["a*b*c", "aXbYcZ", false],
    ["*_page", "fetch_page", true],
    // Regular-expression characters are literal.
    ["a.b", "aXb", false],
    ["a.b", "a.b", true],
    ["(x)+", "(x)+", true],
    ["[ab]", "a", false],
  ])("%s against %s is %s", (pattern, name, expected) => {
    expect(matchesToolPattern(pattern, name)).toBe(expected);
  });

  it("answers a pattern that would make a backtracking matcher exponential", () => {
    // With regular expressions built from globs, (.*a){20}b against 'a' × 40 backtracks for minutes.
    expect(matchesToolPattern(`${"*a".repeat(20)}b`, "a".repeat(128))).toBe(false);
    expect(matchesToolPattern(`${"*a".repeat(20)}*`, "a".repeat(128))).toBe(true);
  });
});
