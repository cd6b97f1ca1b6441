/**
 * The embedded word vectors: the 50,000 most frequent lower-case English words of GloVe (Wikipedia +
 * Gigaword, 100 dimensions, public domain), one byte per dimension, in `data/word-vectors.bin`
 * (5.4 MB; `scripts/build-word-vectors.mjs` says how it is made and its format). Read once, on the
 * first search that needs them, so executors that never search never pay for them.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** The file, found from this module: `src/plugins/search/` and `dist/plugins/search/` are both three levels below the package. */
export const WORD_VECTORS_PATH = fileURLToPath(new URL("../../../data/word-vectors.bin", import.meta.url));

const MAGIC = "TXWV";
const FORMAT_VERSION = 1;
const HEADER_BYTES = 20;

/** Unit-length vectors of known words, and each word's frequency rank (0 = most frequent). */
export interface WordVectors {
  dimensions: number;
  size: number;
  /** The word's rank, or undefined for a word not in the vocabulary. */
  rank(word: string): number | undefined;
  /** The word's unit vector (a new array), or undefined. */
  vector(word: string): Float32Array | undefined;
  /** Add `weight` × the unit vector of the word of `rank` to `target`, in place. */
  addTo(rank: number, weight: number, target: Float32Array): void;
}

let loaded: WordVectors | undefined;

/** The embedded vectors, read on first use. Throws if the file is missing or malformed (a broken install). */
export function loadWordVectors(path = WORD_VECTORS_PATH): WordVectors {
  if (loaded && path === WORD_VECTORS_PATH) return loaded;
  const bytes = readFileSync(path);
  if (bytes.length < HEADER_BYTES || bytes.toString("ascii", 0, 4) !== MAGIC || bytes.readUInt32LE(4) !== FORMAT_VERSION) {
    throw new Error(`${path} is not a toolexec word-vector file (format ${FORMAT_VERSION})`);
  }
  const size = bytes.readUInt32LE(8);
  const dimensions = bytes.readUInt32LE(12);
  const listBytes = bytes.readUInt32LE(16);
  const words = bytes.toString("utf8", HEADER_BYTES, HEADER_BYTES + listBytes).split("\n");
  const start = HEADER_BYTES + listBytes;
  if (words.length !== size || bytes.length !== start + size * dimensions) throw new Error(`${path} is truncated or corrupt`);
  // Kept as the file's bytes (5 MB, not 20 as floats), with each word's 1 / length.
  const raw = new Int8Array(bytes.buffer, bytes.byteOffset + start, size * dimensions);
  const inverseNorms = new Float32Array(size);
  for (let word = 0; word < size; word++) {
    let norm = 0;
    for (let at = word * dimensions; at < (word + 1) * dimensions; at++) norm += (raw[at] as number) ** 2;
    inverseNorms[word] = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  }
  const ranks = new Map<string, number>();
  words.forEach((word, at) => ranks.set(word, at));
  const addTo = (rank: number, weight: number, target: Float32Array) => {
    const scale = weight * (inverseNorms[rank] as number);
    const offset = rank * dimensions;
    for (let dimension = 0; dimension < dimensions; dimension++) target[dimension] = (target[dimension] as number) + scale * (raw[offset + dimension] as number);
  };
  const vectors: WordVectors = {
    dimensions,
    size,
    rank: (word) => ranks.get(word),
    vector(word) {
      const rank = ranks.get(word);
      if (rank === undefined) return undefined;
      const vector = new Float32Array(dimensions);
      addTo(rank, 1, vector);
      return vector;
    },
    addTo,
  };
  if (path === WORD_VECTORS_PATH) loaded = vectors;
  return vectors;
}
