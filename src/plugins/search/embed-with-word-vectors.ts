/**
 * The embedded text embedding: a text's vector is the weighted mean of its words' GloVe vectors,
 * each word weighted by how rare it is (smooth inverse frequency, Arora et al. 2017: a / (a + p(w)),
 * p from the word's frequency rank by Zipf's law), so "the", "get" and "a" say little and "mortgage"
 * or "forecast" say much. Words outside the vocabulary (product names: "kubectl") add nothing; the
 * lexical stage matches those.
 */
import { loadWordVectors, type WordVectors } from "./word-vectors.js";
import { isAscii, isStopWord, splitWords, WordScanner } from "./tokenize-text.js";
import { WordTable } from "./word-table.js";
import { normalizeVector } from "./normalize-vector.js";
import type { RankOfWord } from "./kept-word-ranks.js";

/** SIF's smoothing constant: words more frequent than about 1 in 1,000 are damped. */
const SMOOTHING = 1e-3;

/** Zipf's law: the share of running text taken by the word of a rank. */
function frequencyOfRank(rank: number, size: number): number {
  return 1 / ((rank + 1) * (Math.log(size) + 0.5772));
}

/** The rank of the word, or of its singular, or undefined. */
function rankOf(vectors: WordVectors, word: string): number | undefined {
  return vectors.rank(word) ?? (word.endsWith("s") && word.length > 3 ? vectors.rank(word.slice(0, -1)) : undefined);
}

/** Most words whose rank is remembered per set of vectors. */
const MAX_CACHED_WORDS = 50_000;

/** What embedding with one set of vectors keeps between texts. */
interface Weighing {
  /** Each word's rank (-1: a stop word or not in the vocabulary), found by the word's place in a text. */
  ranks: WordTable<number>;
  /** Each rank's SIF weight once worked out (0 until then): a logarithm per word of 10,000 tools added up. */
  weights: Float64Array;
  rankOfWord: (word: string) => number;
  /** Tells this set's ranks kept on the index's words (`WordTerms.vectorRank`) from another set's. */
  serial: number;
}
const weighings = new WeakMap<WordVectors, Weighing>();
const scanner = new WordScanner("");
let weighingCount = 0;

function weighingOf(vectors: WordVectors): Weighing {
  let weighing = weighings.get(vectors);
  if (!weighing) {
    const rankOfWord = (word: string) => (isStopWord(word) ? -1 : (rankOf(vectors, word) ?? -1));
    weighings.set(vectors, (weighing = { ranks: new WordTable<number>(MAX_CACHED_WORDS), weights: new Float64Array(vectors.size), rankOfWord, serial: weighingCount++ }));
  }
  return weighing;
}

/** Adds the word of `rank` (none for -1), weighted by how rare it is, to `sum`. */
function addWord(vectors: WordVectors, weights: Float64Array, rank: number, sum: Float32Array): void {
  if (rank === -1) return;
  const weight = weights[rank] || (weights[rank] = SMOOTHING / (SMOOTHING + frequencyOfRank(rank, vectors.size)));
  vectors.addTo(rank, weight, sum);
}

/** Adds the weighted vector of each known word of `text` to `sum`, the words in the order `splitWords` gives them. */
export function addWordsOf(vectors: WordVectors, text: string, sum: Float32Array): void {
  const { ranks, weights, rankOfWord } = weighingOf(vectors);
  if (isAscii(text)) {
    scanner.reset(text);
    while (scanner.next()) addWord(vectors, weights, ranks.get(text, scanner.start, scanner.end, rankOfWord), sum);
  } else {
    for (const word of splitWords(text)) addWord(vectors, weights, rankOfWord(word), sum);
  }
}

/**
 * The rank of a word of the index in the embedded vectors, remembered on the index's entry for the
 * word; undefined when the vectors cannot be read (the word vectors' index then says why).
 */
export function defaultVectorsRankOfWord(): RankOfWord | undefined {
  let vectors: WordVectors;
  try {
    vectors = loadWordVectors();
  } catch {
    return undefined;
  }
  const { rankOfWord, serial } = weighingOf(vectors);
  return (terms) => {
    if (terms.vectorsSerial !== serial) {
      terms.vectorRank = rankOfWord(terms.word);
      terms.vectorsSerial = serial;
    }
    return terms.vectorRank;
  };
}

/**
 * Adds the weighted vector of the words of each rank of `ranks.subarray(from, to)` (as
 * `defaultVectorsRankOfWord` gives them) to `sum`: the same as `addWordsOf` over the texts of those words.
 */
export function addRankedWords(vectors: WordVectors, ranks: Int32Array, from: number, to: number, sum: Float32Array): void {
  const { weights } = weighingOf(vectors);
  for (let at = from; at < to; at++) addWord(vectors, weights, ranks[at] as number, sum);
}

/** One text's unit vector; all zeros when it has no known word. */
export function embedText(vectors: WordVectors, text: string): Float32Array {
  const sum = new Float32Array(vectors.dimensions);
  addWordsOf(vectors, text, sum);
  return normalizeVector(sum);
}

/**
 * The default `embeddings` function: texts to unit vectors with the embedded word vectors.
 *
 * @example
 * const [query] = await embedWithWordVectors(["is it going to snow?"]); // 100 numbers
 */
export async function embedWithWordVectors(texts: readonly string[]): Promise<Float32Array[]> {
  const vectors = loadWordVectors();
  return texts.map((text) => embedText(vectors, text));
}
