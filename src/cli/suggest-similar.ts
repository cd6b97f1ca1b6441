/** "Did you mean": the closest known word to a mistyped command or flag. */
import { editDistance } from "../core/edit-distance.js";

/**
 * The candidate closest to `word`, if it is close enough to be a typo (a third of the word's
 * letters, at least one) or `word` is its start (`--arg` for `--args-file` as well as `--args`).
 *
 * @example
 * suggestSimilar("--arg", ["--args", "--args-file", "--json"]); // "--args"
 */
export function suggestSimilar(word: string, candidates: readonly string[]): string | undefined {
  const stem = word.replace(/^-+/, "");
  const allowed = Math.max(1, Math.floor(stem.length / 3));
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const distance = editDistance(word, candidate);
    if (distance > allowed && !(stem.length >= 2 && candidate.startsWith(word))) continue;
    if (best === undefined || distance < best.distance) best = { candidate, distance };
  }
  return best?.candidate;
}
