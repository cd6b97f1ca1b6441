/**
 * The request as query terms with weights: the words as written, hints from its literals and its
 * tense, related words from the thesaurus, the words exactly as written (for names), and the stems
 * that complete a word no tool has. The ranker scores each term by BM25F at its weight.
 */
import type { IndexStatistics } from "./tool-index.js";
import { PREFIX_LENGTH } from "./term-vocabulary.js";
import { relatedTerms } from "./related-words.js";
import { isStopWord, splitWords, tokenizeText } from "./tokenize-text.js";
import { literalHints, separateLiterals } from "./literal-hints.js";
import { pastTenseWords, tenseHints } from "./tense-hints.js";
import { surfaceTerm } from "./document-terms.js";

/** What a related word is worth next to the word itself. */
const RELATED_WEIGHT = 0.4;
/** What a hint from a literal (a path, a URL) is worth. */
const HINT_WEIGHT = 0.6;
/** What a stem that completes a written word, or that a written word completes, is worth ("lat" → latitude, "repositories" → repo). */
const PARTIAL_WEIGHT = 0.4;
/** Most completions of one written word that count: the shortest, which say least beyond what was written. */
const MAX_COMPLETIONS = 8;
/** A shorter stem stands for a written word when it has at least this many characters and this share of the word's. */
const SHORTEST_ABBREVIATION = 4;
const ABBREVIATION_SHARE = 2 / 3;

/** What matching a name's word exactly as written adds to matching its stem. */
const SURFACE_WEIGHT = 0.3;

/** One query term: how much it counts, and the written word it stands for, if it is a relative. */
export interface QueryTerm {
  weight: number;
  /** For a related word: the written word, whose informativeness caps this one's. */
  source?: string;
}

/** The hand-written stages, which the bench turns off one at a time to measure each by half of the dev set. */
export type RankingStage = "related" | "hints" | "surface" | "partial" | "action" | "deprecated" | "routes";
/** No stage turned off. */
export const ALL_STAGES: ReadonlySet<RankingStage> = new Set();

/** The query's terms with their weights: the written ones at 1 (past-tense verbs of a question about the past at HINT_WEIGHT), hints at HINT_WEIGHT, relatives at RELATED_WEIGHT. */
export function expandQuery(query: string, without: ReadonlySet<RankingStage> = ALL_STAGES): Map<string, QueryTerm> {
  const terms = new Map<string, QueryTerm>();
  const written = tokenizeText(query);
  // In a question about the past, a verb in the past tense says what the history is about ("which
  // files were deleted?" wants a history of changes, not the delete tool): it counts as a hint.
  const past = new Set(without.has("hints") ? [] : tokenizeText(pastTenseWords(query).join(" ")));
  // A word only inside a path, URL, file name or address names the thing, not the tool: it counts as a hint.
  if (!without.has("hints")) {
    const { literals, rest } = separateLiterals(query);
    const outside = new Set(tokenizeText(rest));
    for (const term of tokenizeText(literals)) if (!outside.has(term)) past.add(term);
  }
  for (const term of written) terms.set(term, { weight: past.has(term) ? HINT_WEIGHT : 1 });
  for (const term of without.has("hints") ? [] : tokenizeText(`${literalHints(query)} ${tenseHints(query)}`)) if (!terms.has(term)) terms.set(term, { weight: HINT_WEIGHT });
  for (const term of written) {
    for (const related of without.has("related") ? [] : relatedTerms(term)) if (!terms.has(related)) terms.set(related, { weight: RELATED_WEIGHT, source: term });
  }
  // The words as written, to match a name's own words: "tables" fits `list_tables` better than `describe_table`.
  for (const word of without.has("surface") ? [] : splitWords(query)) if (!isStopWord(word)) terms.set(surfaceTerm(word), { weight: SURFACE_WEIGHT });
  return terms;
}

/**
 * Matching part of a word: a written word no tool has may be the start of one ("lat", "calc",
 * "k8"), or a longer form of a shorter stem that tools use ("configurations" → `config`). Each
 * such stem counts at PARTIAL_WEIGHT, capped by the written word's informativeness.
 */
export function addPartialTerms(index: IndexStatistics, terms: Map<string, QueryTerm>): void {
  const written = [...terms].filter(([term, { weight, source }]) => weight === 1 && source === undefined && !term.startsWith("=") && index.documentFrequency(term) === 0);
  for (const [term] of written) {
    const completions = index.termsStartingWith(term).sort((left, right) => left.length - right.length || (left < right ? -1 : 1)).slice(0, MAX_COMPLETIONS);
    // The longest shorter stem tools use, when it keeps most of the word ("configur" → `config`, not "parkwai" → `park`).
    let shorter: string | undefined;
    for (let length = term.length - 1; shorter === undefined && length >= Math.max(SHORTEST_ABBREVIATION, Math.ceil(term.length * ABBREVIATION_SHARE)); length--) if (index.documentFrequency(term.slice(0, length)) > 0) shorter = term.slice(0, length);
    for (const partial of shorter === undefined ? completions : [...completions, shorter]) if (!terms.has(partial)) terms.set(partial, { weight: PARTIAL_WEIGHT, source: term });
  }
}
