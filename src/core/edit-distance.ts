/** Levenshtein distance, for "did you mean" hints: of a config key, a tool name, a CLI command or flag. */

/**
 * The number of single-character insertions, deletions and substitutions that turn `left` into `right`.
 *
 * @example
 * editDistance("--arg", "--args"); // 1
 */
export function editDistance(left: string, right: string): number {
  let previous = Array.from({ length: right.length + 1 }, (_, index) => index);
  for (let row = 1; row <= left.length; row++) {
    const current = [row];
    for (let column = 1; column <= right.length; column++) {
      const substitution = previous[column - 1]! + (left[row - 1] === right[column - 1] ? 0 : 1);
      current.push(Math.min(previous[column]! + 1, current[column - 1]! + 1, substitution));
    }
    previous = current;
  }
  return previous[right.length]!;
}
