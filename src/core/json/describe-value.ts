/** Short, human words for a JSON value in error messages: `"ruby"`, `-5`, `an array`, `nothing`. */
import type { JsonPath } from "./parse-json-document.js";
import { editDistance } from "../edit-distance.js";

const LONGEST_QUOTED_STRING = 40;

export function describeValue(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  // A function's text is its source code: useless, and possibly long, in a message.
  if (typeof value === "function") return "a function";
  if (typeof value === "object") return "an object";
  if (typeof value === "string") {
    if (value.length <= LONGEST_QUOTED_STRING) return JSON.stringify(value);
    // The cut-off text alone would hide why a long value fails a length limit.
    return `${JSON.stringify(`${value.slice(0, LONGEST_QUOTED_STRING - 3)}...`)} (${value.length} characters)`;
  }
  return String(value);
}

/** The value at `path` inside `root`, or undefined when any step is missing (own keys only). */
export function valueAt(root: unknown, path: JsonPath): unknown {
  let current = root;
  for (const segment of path) {
    if (current === null || typeof current !== "object") return undefined;
    if (!Object.prototype.hasOwnProperty.call(current, segment)) return undefined;
    current = (current as Record<string | number, unknown>)[segment];
  }
  return current;
}

/**
 * Longest input or candidate `closestMatch` compares. Every name it is used for (config keys, tool
 * and server names, flags) is shorter, and the comparison costs the product of the two lengths: a
 * 4 MB tool name from sandboxed code blocked the host for seconds against a catalog.
 */
export const MAX_MATCHED_LENGTH = 256;

/** The closest candidate within a small edit distance, for "did you mean" hints; none for an input over MAX_MATCHED_LENGTH. */
export function closestMatch(input: string, candidates: Iterable<string>): string | undefined {
  if (input.length > MAX_MATCHED_LENGTH) return undefined;
  const wanted = input.toLowerCase();
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(input.length / 3)) + 1;
  for (const candidate of candidates) {
    if (candidate.length > MAX_MATCHED_LENGTH) continue;
    const distance = editDistance(wanted, candidate.toLowerCase(), bestDistance - 1);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}
