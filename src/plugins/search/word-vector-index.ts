/**
 * The semantic index of the embedded word vectors: each tool's vector computed straight into one
 * array by document slot from its name and first sentence, with no text made, no map by text and no
 * array per tool — at 10,000 tools those were more than half of embedding them. The vectors are the
 * same to the last bit as the generic index's over `embedWithWordVectors` (the words in the same
 * order, made unit length twice, as that index does to what a function returns), so are the
 * similarities, their mean and their best. A tool's vector is worked out again only when it changed.
 */
import { performance } from "node:perf_hooks";
import { ToolexecError } from "../../core/errors/toolexec-error.js";
import { normalizeVector } from "./normalize-vector.js";
import { similaritiesBySlot, type SemanticIndex, type Similarities } from "./semantic-index.js";
import type { IndexChange, IndexStatistics } from "./tool-index.js";
import type { ToolDocument } from "./tool-document.js";
import { addRankedWords, addWordsOf } from "./embed-with-word-vectors.js";
import { loadWordVectors, WORD_VECTORS_PATH, type WordVectors } from "./word-vectors.js";

/** Longest stretch of background embedding between two turns of the event loop. */
const EMBEDDING_SLICE_MS = 8;

/** The embedded vectors; a broken install fails the search with PLUGIN_FAILED, as an embedding function that throws does. */
function readVectors(path: string): WordVectors {
  try {
    return loadWordVectors(path);
  } catch (error) {
    throw new ToolexecError("PLUGIN_FAILED", `The embedded word vectors could not be read: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}

/** Tools embedded, then tools added and removed in order: what brings the vectors to one index version. */
interface EmbeddingJob {
  version: number;
  /** Every document (a full pass), or the changes since the last version embedded. */
  documents?: ToolDocument[];
  changes?: readonly IndexChange[];
  next: number;
}

/**
 * An index of word-vector similarities over the tools of `index`, with the vectors of `path` (the
 * embedded ones by default).
 *
 * @example
 * const semantic = createWordVectorIndex();
 * const { bySlot, mean, best } = await semantic.similarities(index, "is it going to snow?");
 */
export function createWordVectorIndex(path = WORD_VECTORS_PATH): SemanticIndex {
  let vectors: WordVectors | undefined;
  let width = 0;
  let matrix = new Float32Array(0);
  /** 1 where a slot holds a tool's vector. */
  let held = new Uint8Array(0);
  let syncedVersion = -1;
  let job: EmbeddingJob | undefined;
  let pending: Promise<void> | undefined;

  /** The unit vector of a text made of these parts, as the generic index keeps `embedWithWordVectors`' vectors: normalized twice. */
  const embedParts = (first: string, second: string, into: Float32Array): Float32Array => {
    into.fill(0);
    addWordsOf(vectors as WordVectors, first, into);
    addWordsOf(vectors as WordVectors, second, into);
    return normalizeVector(normalizeVector(into));
  };
  let scratch = new Float32Array(0);
  const place = (document: ToolDocument) => {
    // The text `name words: first sentence` has these words in this order: the name's, then the sentence's.
    const ranks = document.embeddingRanks;
    // The ranks the index kept are the embedded vectors' (see defaultVectorsRankOfWord): no second scan.
    if (ranks && path === WORD_VECTORS_PATH) {
      scratch.fill(0);
      addRankedWords(vectors as WordVectors, ranks, document.embeddingFrom, document.embeddingTo, scratch);
      matrix.set(normalizeVector(normalizeVector(scratch)), document.slot * width);
      // Kept no longer than needed: the shared array goes once its documents are embedded.
      document.embeddingRanks = undefined;
    } else matrix.set(embedParts(document.ownName, document.summary, scratch), document.slot * width);
    held[document.slot] = 1;
  };
  const fit = (capacity: number) => {
    if (held.length >= capacity) return;
    const grownMatrix = new Float32Array(capacity * width);
    grownMatrix.set(matrix);
    matrix = grownMatrix;
    const grownHeld = new Uint8Array(capacity);
    grownHeld.set(held);
    held = grownHeld;
  };
  const plan = (index: IndexStatistics): EmbeddingJob => {
    const changes = syncedVersion === -1 ? undefined : index.changesSince(syncedVersion);
    if (changes) return { version: index.version, changes, next: 0 };
    held.fill(0);
    return { version: index.version, documents: [...index.documents()], next: 0 };
  };
  /** Embeds until `deadline`; true once the vectors match the index. */
  const step = (index: IndexStatistics, deadline: number): boolean => {
    if (!vectors) {
      vectors = readVectors(path);
      width = vectors.dimensions;
      scratch = new Float32Array(width);
    }
    while (syncedVersion !== index.version) {
      job ??= plan(index);
      fit(index.capacity);
      const items = job.documents ?? job.changes ?? [];
      while (job.next < items.length) {
        const item = items[job.next++] as ToolDocument | IndexChange;
        if ("added" in item) {
          if (item.added) place(item.document);
          else held[item.document.slot] = 0;
        } else place(item);
        if (job.next % 256 === 0 && performance.now() >= deadline) return false;
      }
      syncedVersion = job.version;
      job = undefined;
    }
    return true;
  };
  /** The background's pass: slices that leave the event loop free between them. */
  const update = (index: IndexStatistics): Promise<void> => {
    if (syncedVersion === index.version) return Promise.resolve();
    pending ??= (async () => {
      while (!step(index, performance.now() + EMBEDDING_SLICE_MS)) await new Promise((resolve) => setImmediate(resolve));
    })().finally(() => (pending = undefined));
    return pending;
  };

  return {
    ready: (index) => syncedVersion === index.version,
    update,
    async similarities(index, query): Promise<Similarities> {
      // A search waiting finishes the embedding at once.
      step(index, Number.POSITIVE_INFINITY);
      return similaritiesBySlot(queryVector(query), matrix, width, Math.min(index.capacity, held.length), index.capacity, (slot) => held[slot] === 1);
    },
  };

  /** The request's unit vector, made as the tools' are (normalized twice). */
  function queryVector(query: string): Float32Array {
    const sum = new Float32Array(width);
    addWordsOf(vectors as WordVectors, query, sum);
    return normalizeVector(normalizeVector(sum));
  }
}
