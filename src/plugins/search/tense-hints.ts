/**
 * What the tense of a request says: a question about what happened ("which invoices were paid in
 * March?", "who closed the build ticket?") asks for a history, not for the action. Adds a few
 * words to the query, at a hint's weight, as literal-hints does for pasted literals; and its verbs
 * in the past tense name the events the history is about, not the operation wanted, so they count
 * as hints too rather than as written words.
 */
import { splitWords } from "./tokenize-text.js";

/** A question: it starts with a question word or ends with "?". */
const QUESTION = /^\s*(what|which|who|whom|when|where|why|how|has|have|had|did|does|do|is|are|was|were)\b|\?\s*$/i;
/** A past tense or past participle: "closed", "got", "was", "did" (not "need" or "speed"). */
const PAST_WORD = "\\w{2,}[a-df-z]ed|got|gone|went|did|was|were|been|done|made|sent|said|told|broke|ran|wrote|written";
const PAST = new RegExp(`\\b(${PAST_WORD})\\b`, "i");
const PAST_EXACT = new RegExp(`^(${PAST_WORD})$`, "i");

function asksAboutThePast(query: string): boolean {
  return QUESTION.test(query) && PAST.test(query);
}

/** The hint words of a question about the past, space-separated; "" for any other request. */
export function tenseHints(query: string): string {
  return asksAboutThePast(query) ? "history log recent list" : "";
}

/** The past-tense words of a question about the past ("which files were deleted?" → were, deleted); none for any other request. */
export function pastTenseWords(query: string): string[] {
  return asksAboutThePast(query) ? splitWords(query).filter((word) => PAST_EXACT.test(word)) : [];
}
