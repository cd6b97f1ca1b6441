/** Levenshtein distance, for "did you mean" hints: of a config key, a tool name, a CLI command or flag. */

/**
 * The number of single-character insertions, deletions and substitutions that turn `left` into `right`.
 * With `atMost`, any distance above it is reported as `atMost + 1`, found as soon as it is certain
 * (the lengths differ by more, or a whole row exceeds it): a hint needs only close candidates.
 *
 * @example
 * editDistance("--arg", "--args"); // 1
 * editDistance("create_issue", "delete_everything", 2); // 3
 */
export function editDistance(left: string, right: string, atMost = Infinity): number {
  if (Math.abs(left.length - right.length) > atMost) return atMost + 1;
  let previous = Array.from({ length: right.length + 1 }, (_, index) => index);
  for (let row = 1; row <= left.length; row++) {
    const current = [row];
    let rowLeast = row;
    for (let column = 1; column <= right.length; column++) {
      const substitution = previous[column - 1]! + (left[row - 1] === right[column - 1] ? 0 : 1);
      const distance = Math.min(previous[column]! + 1, current[column - 1]! + 1, substitution);
      current.push(distance);
      if (distance < rowLeast) rowLeast = distance;
    }
    // Distances never shrink from one row to the next one's least.
    if (rowLeast > atMost) return atMost + 1;
    previous = current;
  }
  return Math.min(previous[right.length]!, atMost + 1);
}
