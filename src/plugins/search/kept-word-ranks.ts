/**
 * The word-vector ranks of the words of documents' names and summaries, kept as the index counts
 * them so that the word vectors need not scan those texts again (~80,000 words at 10,000 tools).
 * Numbers in shared arrays, each document its stretch of one: an array of words per document, kept
 * until embedded, cost more in allocation and collection than the second scan it saved.
 */

/** A word's rank in the word vectors (-1: none), from the index's entry for the word. */
export type RankOfWord = (terms: { word: string; vectorRank: number; vectorsSerial: number }) => number;

/** Ranks per array; a document's words that do not fit move to a new one. */
const RANKS_PER_ARRAY = 16_384;

export class KeptWordRanks {
  /** The array the current document's ranks are in, from `from` to `to`. */
  ranks = new Int32Array(0);
  from = 0;
  to = 0;

  constructor(readonly rankOf: RankOfWord) {}

  /** A new document begins. */
  start(): void {
    this.from = this.to;
  }

  push(rank: number): void {
    if (this.to === this.ranks.length) {
      // Earlier documents keep the full array; this one's ranks so far move to a new one.
      const next = new Int32Array(Math.max(RANKS_PER_ARRAY, 2 * (this.to - this.from) + 1));
      next.set(this.ranks.subarray(this.from, this.to));
      this.to -= this.from;
      this.from = 0;
      this.ranks = next;
    }
    this.ranks[this.to++] = rank;
  }
}
