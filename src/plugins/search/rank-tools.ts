/**
 * Ranking: BM25F over the index, with the query's words expanded by the thesaurus. A tool's name
 * counts most (a tool is named for what it does), then its server (a request that names the
 * product means that product's tools), then the first sentence of its description, the rest of it,
 * its parameters. A word the person wrote counts fully; a related word counts for a share of it.
 */
import type { ToolDocument } from "./tool-document.js";
import { inverseDocumentFrequency, scoredPostings } from "./scored-postings.js";
import { DEFAULT_MODEL_WEIGHT, DEFAULT_SEMANTIC_WEIGHT } from "./config/default-weights.js";
import type { IndexStatistics } from "./tool-index.js";
import { addPartialTerms, ALL_STAGES, expandQuery, type QueryTerm, type RankingStage } from "./expand-query.js";
import { routeByShape } from "./route-built-ins.js";
import type { Similarities } from "./semantic-index.js";
import { requestActions, type Action } from "./request-action.js";

/** One ranked tool. */
export interface ToolSearchResult {
  /** The registry name, for `callTool`. */
  name: string;
  /** Higher is better; comparable within one search only. */
  score: number;
  /** The first sentence of the tool's description. */
  summary: string;
  /** The tool's input schema, with `detail: "schema"`. */
  inputSchema?: unknown;
}

/** Factors for a tool whose action matches the request's, or not (see request-action). */
const ACTION_MATCH = 1.25;
const ACTION_MISMATCH_ON_READ = 0.8;
const ACTION_MISMATCH = 0.9;

/** A tool whose description says it is deprecated yields to its replacement. */
const DEPRECATED_FACTOR = 0.85;

/** How far above the best match a built-in routed to by the request's shape is put. */
const ROUTE_MARGIN = 1.1;

/** A related word or hint in more than this share of the tools (and more than MIN_COMMON_FREQUENCY) is skipped. */
const COMMON_SHARE = 0.25;
const MIN_COMMON_FREQUENCY = 50;

export { expandQuery, type QueryTerm, type RankingStage };

/** The tools that match any query term, and their scores by document slot. */
export interface ToolScores {
  matched: ToolDocument[];
  scores: Float64Array;
}

/** Scores of every tool that matches any query term. */
export function scoreTools(index: IndexStatistics, query: Map<string, QueryTerm>): ToolScores {
  const scores = new Float64Array(index.capacity);
  const matched: ToolDocument[] = [];
  const common = Math.max(MIN_COMMON_FREQUENCY, index.size * COMMON_SHARE);
  for (const [term, { weight, source }] of query) {
    // A word most tools have, that the person did not write, only costs time at 10,000 tools:
    // skipped before its postings are scored, which is the cost of a first search after a change.
    if (weight < 1 && index.documentFrequency(term) > common) continue;
    const postings = scoredPostings(index, term);
    if (!postings) continue;
    // A rare relative must not outweigh the common word it stands for ("export" → "download").
    const idf = source === undefined ? postings.idf : Math.min(postings.idf, inverseDocumentFrequency(index, source));
    const factor = weight * idf;
    const { documents, termScores } = postings;
    for (let at = 0; at < documents.length; at++) {
      const slot = (documents[at] as ToolDocument).slot;
      if (scores[slot] === 0) matched.push(documents[at] as ToolDocument);
      scores[slot] = (scores[slot] as number) + factor * (termScores[at] as number);
    }
  }
  return { matched, scores };
}

/** Best first; equal scores in name order, so the same tools and query always give the same order. */
export function compareResults(left: ToolSearchResult, right: ToolSearchResult): number {
  return right.score - left.score || (left.name < right.name ? -1 : left.name > right.name ? 1 : 0);
}

/** A tool doing what the request asks gains; a reading tool for a change, or the reverse, loses. */
function actionFactor(requested: ReadonlySet<Action>, action: Action): number {
  if (requested.size === 0) return 1;
  if (requested.has(action)) return ACTION_MATCH;
  return requested.has("read") || requested.has("find") ? ACTION_MISMATCH_ON_READ : ACTION_MISMATCH;
}

/** Put the built-in of that kind first (when it is registered), just above the best score. */
function promoteBuiltIn(index: IndexStatistics, results: ToolSearchResult[], kind: "human" | "code"): void {
  const document = index.builtIn(kind);
  if (!document) return;
  const at = results.findIndex((result) => result.name === document.name);
  const best = results[0]?.score ?? 0;
  if (at !== -1) results.splice(at, 1);
  results.unshift({ name: document.name, score: Math.round((best * ROUTE_MARGIN + 1e-4) * 1e4) / 1e4, summary: document.summary });
}

/** Insert into a list kept in `compareResults` order. */
function insertSorted(results: ToolSearchResult[], result: ToolSearchResult): void {
  let low = 0;
  let high = results.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (compareResults(results[middle] as ToolSearchResult, result) <= 0) low = middle + 1;
    else high = middle;
  }
  results.splice(low, 0, result);
}


export { DEFAULT_MODEL_WEIGHT, DEFAULT_SEMANTIC_WEIGHT };

/** The lexical score of every matched tool, adjusted for action and deprecation, in `scores` by slot; returns the best. */
function adjustLexical(matched: readonly ToolDocument[], scores: Float64Array, query: string, without: ReadonlySet<RankingStage>): number {
  const actions = without.has("action") ? new Set<Action>() : requestActions(query);
  let best = 0;
  for (const document of matched) {
    const adjusted = (scores[document.slot] as number) * actionFactor(actions, document.action) * (document.deprecated && !without.has("deprecated") ? DEPRECATED_FACTOR : 1);
    scores[document.slot] = adjusted;
    if (adjusted > best) best = adjusted;
  }
  return best;
}

/** What the request's own words could score: the sum of the IDF of each written word some tool has. */
function writtenInformation(index: IndexStatistics, terms: ReadonlyMap<string, QueryTerm>): number {
  let sum = 0;
  for (const [term, { weight, source }] of terms) if (weight === 1 && source === undefined && index.documentFrequency(term) > 0) sum += inverseDocumentFrequency(index, term);
  return sum;
}

/** The lexical scores of one request, by slot. */
export interface LexicalScores extends ToolScores {
  /** The best adjusted score. */
  best: number;
  /** The best lexical match's score divided by this is its share next to a model's cosine (see {@link modelLexicalScale}). */
  reference: number;
}

/** The lexical score of every tool that matches a term, adjusted for action and deprecation, by slot, and the best of them. */
export function lexicalScores(index: IndexStatistics, query: string, without: ReadonlySet<RankingStage> = ALL_STAGES): LexicalScores {
  const terms = expandQuery(query, without);
  if (!without.has("partial")) addPartialTerms(index, terms);
  const { matched, scores } = scoreTools(index, terms);
  return { matched, scores, best: adjustLexical(matched, scores, query, without), reference: writtenInformation(index, terms) };
}

/**
 * What a lexical score is divided by before a model's cosine is added: the best score, or the
 * request's written information when the best match reaches less of it. A match that covers few of
 * the request's words is then weak next to the model; one that covers them counts fully, 1. Both
 * grow with the catalog's IDF alike, so the ratio holds from 100 tools to 10,000.
 */
export function modelLexicalScale(lexical: Pick<LexicalScores, "best" | "reference">): number {
  const scale = Math.max(lexical.best, lexical.reference * MODEL_LEXICAL_REFERENCE);
  return scale > 0 ? 1 / scale : 1;
}

/** The lexical leader, when it leads the second by LEXICAL_LEAD or more: with a model it stays first. */
export function lexicalLeader(lexical: Pick<ToolScores, "matched" | "scores">): ToolDocument | undefined {
  let first: ToolDocument | undefined;
  let second = 0;
  for (const document of lexical.matched) {
    const score = lexical.scores[document.slot] as number;
    const leading = first === undefined ? -1 : (lexical.scores[first.slot] as number);
    if (score > leading || (score === leading && document.name < (first as ToolDocument).name)) {
      if (first) second = Math.max(second, leading);
      first = document;
    } else second = Math.max(second, score);
  }
  if (!first) return undefined;
  return (lexical.scores[first.slot] as number) >= second * LEXICAL_LEAD ? first : undefined;
}

/**
 * A tool's semantic share: its similarity above the mean similarity, scaled so the most similar
 * tool gets `weight`. Relative, because what a cosine means depends on the embedding.
 */
function semanticShare(similarities: Similarities, slot: number, weight: number): number {
  const { bySlot, mean, best } = similarities;
  return best > mean ? (weight * Math.max(0, (bySlot[slot] as number) - mean)) / (best - mean) : 0;
}


/**
 * With a model, a lexical leader this far ahead of the second keeps first place: a clear lexical
 * match was right far more often than the model on every set; a near tie is what the model settles.
 */
export const LEXICAL_LEAD = 1.1;

/** The share of the request's written information a lexical match must reach to count fully next to a model. */
const MODEL_LEXICAL_REFERENCE = 1;

/** What the semantic stage brings to one search. */
export interface SemanticStage {
  /** Each tool's cosine similarity to the request (from the embeddings). */
  similarities?: Similarities;
  /**
   * Which embeddings: the embedded word vectors only re-rank tools that matched a word (alone they
   * are too loose) and count relative to the spread of similarities; a host's function may rank any
   * tool, relative too; a sentence model (`toolSearch.model`) ranks any tool by its raw cosine,
   * which means the same from one request to the next.
   */
  kind?: "word-vectors" | "host" | "model";
  /** What the semantic stage weighs next to the best lexical match's 1. Default {@link DEFAULT_SEMANTIC_WEIGHT}. */
  weight?: number;
}

/** A tool's share of the semantic stage. */
function semanticScore(semantic: SemanticStage, slot: number, weight: number): number {
  const { similarities, kind } = semantic;
  if (!similarities) return 0;
  return kind === "model" ? weight * (similarities.bySlot[slot] as number) : semanticShare(similarities, slot, weight);
}

/**
 * Rank the indexed tools for a query: BM25F, and with `similarities` (the semantic stage's cosine
 * per slot) the two fused — the lexical score relative to the best one, plus the semantic share.
 */
export function rankTools(index: IndexStatistics, query: string, limit: number, semantic: SemanticStage = {}, without: ReadonlySet<RankingStage> = ALL_STAGES): ToolSearchResult[] {
  const { similarities, weight = DEFAULT_SEMANTIC_WEIGHT } = semantic;
  const lexical = lexicalScores(index, query, without);
  const { matched, scores, best: bestLexical } = lexical;
  const candidates: Iterable<ToolDocument> = similarities && semantic.kind !== undefined && (semantic.kind !== "word-vectors" || matched.length === 0) ? index.documents() : matched;
  const withModel = similarities !== undefined && semantic.kind === "model";
  const lexicalScale = withModel ? modelLexicalScale(lexical) : similarities && bestLexical > 0 ? 1 / bestLexical : 1;
  const leader = withModel ? lexicalLeader(lexical) : undefined;
  // Keep only the best `limit` as we go: sorting every match costs more than the scoring at 10,000 tools.
  const results: ToolSearchResult[] = [];
  const fusedOf = (document: ToolDocument) => (scores[document.slot] as number) * lexicalScale + semanticScore(semantic, document.slot, weight);
  for (const document of candidates) {
    const fused = fusedOf(document);
    if (fused <= 0 || document === leader) continue;
    const candidate = { name: document.name, score: Math.round(fused * 1e4) / 1e4, summary: document.summary };
    if (results.length === limit && compareResults(candidate, results[limit - 1] as ToolSearchResult) >= 0) continue;
    insertSorted(results, candidate);
    if (results.length > limit) results.pop();
  }
  if (leader) results.unshift({ name: leader.name, score: Math.round(Math.max(fusedOf(leader), (results[0]?.score ?? 0) + 1e-4) * 1e4) / 1e4, summary: leader.summary });
  const route = without.has("routes") ? undefined : routeByShape(index, query, index.serverTerms());
  if (route !== undefined) promoteBuiltIn(index, results, route);
  return results.slice(0, limit);
}
