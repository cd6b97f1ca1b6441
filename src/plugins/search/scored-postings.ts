/**
 * BM25F term scores: per field, a term's frequency is weighted and normalized by the field's length
 * against its average, summed over fields, then saturated. The scores of one term over its tools are
 * cached per index. A change to the tools moves every field's average length, so each score is
 * recomputed after any change — but from numbers kept in typed arrays, without reading the
 * documents again; only a term whose own tools changed is gathered anew. That is what keeps the
 * first search after `tools:changed` cheap at 10,000 tools.
 */
import { entryCount, entryCountOf, entryTerm, fieldEnd, fieldLength } from "./document-terms.js";
import { FIELDS, type Field, type ToolDocument } from "./tool-document.js";
import type { IndexStatistics } from "./tool-index.js";

/** How much a match in each field weighs, and how much the field's length normalizes it (b). */
const FIELD_WEIGHTS: Record<Field, { weight: number; lengthNormalization: number }> = {
  name: { weight: 4, lengthNormalization: 0.3 },
  server: { weight: 2.5, lengthNormalization: 0 },
  summary: { weight: 2, lengthNormalization: 0.5 },
  description: { weight: 0.7, lengthNormalization: 0.75 },
  parameters: { weight: 0.5, lengthNormalization: 0.75 },
  intent: { weight: 1.2, lengthNormalization: 0 },
};

/** BM25's term-frequency saturation. */
const K1 = 1.2;

/** One term's tools with each one's BM25F term score. */
export interface ScoredPostings {
  documents: ToolDocument[];
  termScores: Float64Array;
  idf: number;
}

/** A term's postings as gathered: per tool, the fields it has the term in, with the count and the field's length. */
interface GatheredPostings extends ScoredPostings {
  /** The index version the documents were gathered at. */
  gatheredAt: number;
  /** The index version the scores were computed at. */
  scoredAt: number;
  /** Per tool `at`, its entries are `starts[at]` up to `starts[at + 1]`. */
  starts: Uint32Array;
  fields: Uint8Array;
  counts: Float64Array;
  lengths: Float64Array;
}

/** Most terms cached per index; past it the cache starts over. */
const MAX_CACHED_TERMS = 20_000;
const caches = new WeakMap<IndexStatistics, Map<string, GatheredPostings>>();

export function inverseDocumentFrequency(index: IndexStatistics, term: string): number {
  const frequency = index.documentFrequency(term);
  return Math.log(1 + (index.size - frequency + 0.5) / (frequency + 0.5));
}

function gather(index: IndexStatistics, term: string, postings: readonly ToolDocument[]): GatheredPostings {
  const id = index.termId(term) as number;
  const documents = postings.slice();
  const starts = new Uint32Array(documents.length + 1);
  const fields: number[] = [];
  const counts: number[] = [];
  const lengths: number[] = [];
  documents.forEach(({ terms }, at) => {
    // Entries run field by field, each term once per field: the term's entries come in FIELDS order.
    let field = 0;
    for (let entry = 0; entry < entryCount(terms); entry++) {
      while (entry >= fieldEnd(terms, field)) field++;
      if (entryTerm(terms, entry) !== id) continue;
      fields.push(field);
      counts.push(entryCountOf(terms, entry));
      lengths.push(fieldLength(terms, field));
    }
    starts[at + 1] = fields.length;
  });
  const termScores = new Float64Array(documents.length);
  return { documents, termScores, idf: 0, gatheredAt: index.version, scoredAt: -1, starts, fields: Uint8Array.from(fields), counts: Float64Array.from(counts), lengths: Float64Array.from(lengths) };
}

/** The scores under the index's current field lengths. */
function score(index: IndexStatistics, term: string, postings: GatheredPostings): void {
  const weights = FIELDS.map((field) => FIELD_WEIGHTS[field].weight);
  const normalizations = FIELDS.map((field) => FIELD_WEIGHTS[field].lengthNormalization);
  const averages = FIELDS.map((field) => index.averageLength(field));
  const { starts, fields, counts, lengths, termScores } = postings;
  for (let at = 0; at < termScores.length; at++) {
    let frequency = 0;
    for (let entry = starts[at] as number; entry < (starts[at + 1] as number); entry++) {
      const field = fields[entry] as number;
      const normalization = normalizations[field] as number;
      frequency += ((weights[field] as number) * (counts[entry] as number)) / (1 - normalization + (normalization * (lengths[entry] as number)) / (averages[field] as number));
    }
    termScores[at] = (frequency * (K1 + 1)) / (K1 + frequency);
  }
  postings.idf = inverseDocumentFrequency(index, term);
  postings.scoredAt = index.version;
}

/**
 * One term's postings, scored under the index as it is now; undefined when no tool has the term.
 *
 * @example
 * const postings = scoredPostings(index, "issu"); // { documents, termScores, idf }
 */
export function scoredPostings(index: IndexStatistics, term: string): ScoredPostings | undefined {
  let cache = caches.get(index);
  if (!cache) caches.set(index, (cache = new Map()));
  let cached = cache.get(term);
  if (!cached || index.termChangedAt(term) > cached.gatheredAt) {
    const postings = index.postings(term);
    if (postings.length === 0) {
      cache.delete(term);
      return undefined;
    }
    if (cache.size >= MAX_CACHED_TERMS) cache.clear();
    cache.set(term, (cached = gather(index, term, postings)));
  }
  if (cached.scoredAt !== index.version) score(index, term, cached);
  return cached;
}
