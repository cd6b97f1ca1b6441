/** One-line summaries of tool descriptions, for catalogs too large to show whole. */

/** A summary is cut at this many characters. */
export const MAX_SUMMARY_LENGTH = 120;

/**
 * The first sentence of a description on one line, cut at `maxLength` characters.
 *
 * @example
 * summarizeDescription("Summarize a CSV file. Use it before reasoning about a CSV."); // "Summarize a CSV file."
 */
export function summarizeDescription(description: string, maxLength = MAX_SUMMARY_LENGTH): string {
  const flat = description.replace(/\s+/g, " ").trim();
  // A sentence ends at ". " followed by a capital or digit, so "e.g. this" and "v1.2" do not end one.
  const end = flat.search(/[.!?](?= [A-Z0-9`"'(])/);
  const sentence = end === -1 ? flat : flat.slice(0, end + 1);
  return sentence.length <= maxLength ? sentence : `${sentence.slice(0, maxLength - 1).trimEnd()}…`;
}
