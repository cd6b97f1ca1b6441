/**
 * What the tense of a request says: a question about what happened ("which invoices were paid in
 * March?", "who closed the build ticket?") asks for a history, not for the action. Adds a few
 * words to the query, at a hint's weight, as literal-hints does for pasted literals.
 */

/** A question: it starts with a question word or ends with "?". */
const QUESTION = /^\s*(what|which|who|whom|when|where|why|how|has|have|had|did|does|do|is|are|was|were)\b|\?\s*$/i;
/** A past tense or past participle: "closed", "got", "was", "did" (not "need" or "speed"). */
const PAST = /\b(\w{2,}[a-df-z]ed|got|gone|went|did|was|were|been|done|made|sent|said|told|broke|ran|wrote|written)\b/i;

/** The hint words of a question about the past, space-separated; "" for any other request. */
export function tenseHints(query: string): string {
  return QUESTION.test(query) && PAST.test(query) ? "history log recent list" : "";
}
