/**
 * Tool-name globs of `includeTools` / `excludeTools`: `*` is any run of characters, `?` one
 * character, everything else itself. Matched without regular expressions, by the two-pointer
 * wildcard walk that backtracks only to the last `*`: at most name × pattern steps, so no pattern
 * can stall the event loop.
 */

/**
 * @example
 * matchesToolPattern("delete_*", "delete_issue"); // true
 * matchesToolPattern("get_?", "get_ab"); // false
 */
export function matchesToolPattern(pattern: string, name: string): boolean {
  let at = 0;
  let index = 0;
  let star = -1;
  let resumeAt = 0;
  while (at < name.length) {
    const symbol = pattern[index];
    if (symbol === "*") {
      star = index++;
      resumeAt = at;
    } else if (index < pattern.length && (symbol === "?" || symbol === name[at])) {
      index++;
      at++;
    } else if (star >= 0) {
      index = star + 1;
      at = ++resumeAt;
    } else {
      return false;
    }
  }
  while (pattern[index] === "*") index++;
  return index === pattern.length;
}
