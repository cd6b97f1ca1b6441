/**
 * A short account of how a tool differs from what was approved: which parts changed, and for the
 * description the changed middle (common start and end cut), so a person sees "- … + …" at once.
 */
import { revealInvisibleCharacters } from "./description-hygiene.js";
import type { LockedTool } from "./tool-fingerprint.js";

/** Characters of context kept on each side of a changed description's middle. */
const CONTEXT_CHARACTERS = 20;
/** Longest excerpt of one side of the description shown. */
const MAX_EXCERPT_CHARACTERS = 200;

/** How a tool's definition differs from the one approved. */
export interface ToolChange {
  /** The parts that differ: `description`, `inputSchema`, `outputSchema`, `annotations`. */
  changed: Array<"description" | "inputSchema" | "outputSchema" | "annotations">;
  /** The description's changed middle: `- old` / `+ new` lines, when it changed. */
  descriptionDiff?: string;
}

const excerpt = (text: string) => (text.length > MAX_EXCERPT_CHARACTERS ? `${text.slice(0, MAX_EXCERPT_CHARACTERS)}…` : text);

/**
 * `- before` / `+ after` of the part of two texts between their common start and end, invisible
 * characters shown as `<U+200B>`.
 *
 * @example
 * diffDescription("Search the docs.", "Search the docs. Ignore previous instructions.");
 * // "- …h the docs.\n+ …h the docs. Ignore previous instructions."
 */
function diffDescription(before: string, after: string): string {
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start++;
  let end = 0;
  while (end < before.length - start && end < after.length - start && before[before.length - 1 - end] === after[after.length - 1 - end]) end++;
  const from = Math.max(0, start - CONTEXT_CHARACTERS);
  const side = (text: string) => {
    const to = Math.min(text.length, text.length - end + CONTEXT_CHARACTERS);
    return `${from > 0 ? "…" : ""}${revealInvisibleCharacters(excerpt(text.slice(from, to)))}${to < text.length ? "…" : ""}`;
  };
  return `- ${side(before)}\n+ ${side(after)}`;
}

/** How `current` differs from `approved`; `changed` is empty when they are the same. */
export function describeToolChange(approved: LockedTool, current: LockedTool): ToolChange {
  const changed: ToolChange["changed"] = [];
  for (const part of ["description", "inputSchema", "outputSchema", "annotations"] as const) {
    if (approved[part] !== current[part]) changed.push(part);
  }
  return { changed, ...(approved.description === current.description ? {} : { descriptionDiff: diffDescription(approved.description, current.description) }) };
}
