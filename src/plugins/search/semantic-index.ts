/**
 * The semantic stage's index: one unit vector per tool, from an embedding function (the embedded
 * word vectors by default, or the host's `toolSearch.embeddings`), cached by the tool's text — a
 * tool whose name and description did not change is never embedded again, whatever else changed.
 * Vectors sit in one array by document slot, so scoring a query is one pass over memory.
 */
import { ToolexecError } from "../../core/errors/toolexec-error.js";
import { normalizeVector } from "./normalize-vector.js";
import type { IndexChange, IndexStatistics } from "./tool-index.js";
import type { ToolDocument } from "./tool-document.js";

/** Texts to vectors, one per text, all of one length: the shape of `toolSearch.embeddings`. */
export type EmbedTexts = (texts: string[]) => Promise<ArrayLike<number>[]>;

/** Most texts handed to the embedding function in one call. */
export const EMBEDDING_BATCH_SIZE = 128;

/** How a semantic index embeds: which text of a tool, requests apart, and in what batches. */
export interface SemanticIndexOptions {
  /** Requests' embedding function, when it differs from the tools' (a model that caches tools on disk). Default: `embed`. */
  embedQuery?: EmbedTexts;
  /** Most tool texts per call of `embed`. Default {@link EMBEDDING_BATCH_SIZE}. */
  batchSize?: number;
  /** The text of a tool that is embedded. Default: its name's words and first sentence (`document.text`). */
  textOf?: (document: ToolDocument) => string;
}

export interface SemanticIndex {
  /** Does every tool of the index have its vector? */
  ready(index: IndexStatistics): boolean;
  /** Embed the tools whose text has no vector yet; concurrent calls share one pass. */
  update(index: IndexStatistics): Promise<void>;
  /** The cosine similarity of the query to every tool. */
  similarities(index: IndexStatistics, query: string): Promise<Similarities>;
}

/** A query's cosine similarity to every tool, by slot (0 for a free slot), with their mean and maximum over the tools. */
export interface Similarities {
  bySlot: Float32Array;
  mean: number;
  best: number;
}

/**
 * The query's cosine to the vector of every held slot below `slots` (unit vectors side by side in
 * `matrix`, `width` numbers each), with their mean and best; `capacity` numbers by slot.
 */
export function similaritiesBySlot(vector: Float32Array, matrix: Float32Array, width: number, slots: number, capacity: number, held: (slot: number) => boolean): Similarities {
  const bySlot = new Float32Array(capacity);
  let sum = 0;
  let count = 0;
  let best = 0;
  for (let slot = 0; slot < slots; slot++) {
    if (!held(slot)) continue;
    let dot = 0;
    const offset = slot * width;
    for (let dimension = 0; dimension < width; dimension++) dot += (vector[dimension] as number) * (matrix[offset + dimension] as number);
    bySlot[slot] = dot;
    sum += dot;
    best = count === 0 ? dot : Math.max(best, dot);
    count++;
  }
  return { bySlot, mean: count === 0 ? 0 : sum / count, best };
}

/** Are all the numbers finite? (A loop: a callback per number cost ~10 ms over 10,000 tools.) */
function isFinite(vector: Float32Array): boolean {
  for (let at = 0; at < vector.length; at++) if (!Number.isFinite(vector[at])) return false;
  return true;
}

/** The vectors as the function gave them, checked and made unit length; throws PLUGIN_FAILED. */
function checkVectors(raw: unknown, count: number, dimensions: number | undefined): Float32Array[] {
  const fail = (problem: string): never => {
    throw new ToolexecError("PLUGIN_FAILED", `toolSearch.embeddings returned ${problem}`);
  };
  if (!Array.isArray(raw) || raw.length !== count) fail(`${Array.isArray(raw) ? `${raw.length} vectors` : typeof raw}; expected an array of ${count} vectors`);
  return (raw as unknown[]).map((vector, at) => {
    if (!Array.isArray(vector) && !(vector instanceof Float32Array) && !(vector instanceof Float64Array)) return fail(`a ${typeof vector} at [${at}]; expected an array of numbers`);
    const length = (vector as ArrayLike<number>).length;
    if (length === 0 || (dimensions !== undefined && length !== dimensions)) return fail(`a vector of ${length} numbers at [${at}]; expected ${dimensions ?? "at least 1"}`);
    const copy = Float32Array.from(vector as ArrayLike<number>);
    if (!isFinite(copy)) return fail(`a vector with a non-finite number at [${at}]`);
    return normalizeVector(copy);
  });
}

/**
 * A semantic index over `embed`.
 *
 * @example
 * const semantic = createSemanticIndex(embedWithWordVectors);
 * await semantic.update(index);
 * const similarity = await semantic.similarities(index, "is it going to snow?"); // by slot
 */
export function createSemanticIndex(embed: EmbedTexts, options: SemanticIndexOptions = {}): SemanticIndex {
  const { embedQuery = embed, batchSize = EMBEDDING_BATCH_SIZE, textOf = (document: ToolDocument) => document.text } = options;
  const byText = new Map<string, Float32Array>();
  let dimensions: number | undefined;
  let matrix = new Float32Array(0);
  /** The text whose vector each slot holds. */
  let slotTexts: Array<string | undefined> = [];
  let syncedVersion = -1;
  let pending: Promise<void> | undefined;

  const embedChecked = async (texts: string[], using: EmbedTexts = embed): Promise<Float32Array[]> => {
    let raw: unknown;
    try {
      raw = await using(texts);
    } catch (error) {
      throw new ToolexecError("PLUGIN_FAILED", `toolSearch.embeddings threw: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    const vectors = checkVectors(raw, texts.length, dimensions);
    dimensions ??= vectors[0]?.length;
    return vectors;
  };

  /** How many tools have each text, so a text's vector is dropped with its last tool. */
  let uses = new Map<string, number>();
  const fit = (index: IndexStatistics) => {
    const width = dimensions ?? 0;
    if (matrix.length === index.capacity * width) return;
    const grown = new Float32Array(index.capacity * width);
    grown.set(matrix.subarray(0, Math.min(matrix.length, grown.length)));
    matrix = grown;
    slotTexts.length = Math.min(slotTexts.length, index.capacity);
  };
  const setSlot = (slot: number, text: string) => {
    if (slotTexts[slot] !== text) matrix.set(byText.get(text) as Float32Array, slot * (dimensions ?? 0));
    slotTexts[slot] = text;
  };
  /** Every document to its slot: the first time, or when the index's changes reach back too far. */
  const placeAll = (index: IndexStatistics) => {
    fit(index);
    uses = new Map();
    const next: Array<string | undefined> = new Array(index.capacity);
    for (const document of index.documents()) {
      const text = textOf(document);
      uses.set(text, (uses.get(text) ?? 0) + 1);
      setSlot(document.slot, text);
      next[document.slot] = text;
    }
    slotTexts = next;
    for (const text of byText.keys()) if (!uses.has(text)) byText.delete(text);
  };
  /** Only what changed: after one tool's change, no pass over the other 10,000. */
  const placeChanges = (index: IndexStatistics, changes: readonly IndexChange[]) => {
    fit(index);
    // A changed tool is removed, then added: its text's vector may serve the new document too.
    const unused = new Set<string>();
    for (const { document, added } of changes) {
      const text = textOf(document);
      if (added) {
        uses.set(text, (uses.get(text) ?? 0) + 1);
        setSlot(document.slot, text);
        continue;
      }
      if (slotTexts[document.slot] === text) slotTexts[document.slot] = undefined;
      const left = (uses.get(text) ?? 1) - 1;
      uses.set(text, left);
      if (left === 0) unused.add(text);
    }
    for (const text of unused) {
      if ((uses.get(text) ?? 0) > 0) continue;
      uses.delete(text);
      byText.delete(text);
    }
  };

  const sync = async (index: IndexStatistics) => {
    while (syncedVersion !== index.version) {
      const version = index.version;
      const changes = syncedVersion === -1 ? undefined : index.changesSince(syncedVersion);
      const missing = new Set<string>();
      const documents = changes ? changes.filter((change) => change.added).map((change) => change.document) : index.documents();
      for (const document of documents) if (!byText.has(textOf(document))) missing.add(textOf(document));
      const texts = [...missing];
      for (let start = 0; start < texts.length; start += batchSize) {
        const batch = texts.slice(start, start + batchSize);
        const vectors = await embedChecked(batch);
        batch.forEach((text, at) => byText.set(text, vectors[at] as Float32Array));
        // An embedding function that computes in place (the word vectors) would hold the event loop
        // for the whole catalog: let other work run between batches.
        if (start + batchSize < texts.length) await new Promise((resolve) => setImmediate(resolve));
      }
      // The tools may have changed while the function ran: go round again for the newcomers.
      if (index.version !== version) continue;
      if (changes) placeChanges(index, changes);
      else placeAll(index);
      syncedVersion = version;
    }
  };

  const update = (index: IndexStatistics): Promise<void> => {
    if (syncedVersion === index.version) return Promise.resolve();
    pending ??= sync(index).finally(() => (pending = undefined));
    return pending;
  };

  return {
    ready: (index) => syncedVersion === index.version,
    update,
    async similarities(index, query) {
      const [[vector]] = await Promise.all([embedChecked([query], embedQuery), update(index)]);
      const width = dimensions ?? 0;
      if (!vector || width === 0) return { bySlot: new Float32Array(index.capacity), mean: 0, best: 0 };
      return similaritiesBySlot(vector, matrix, width, Math.min(index.capacity, slotTexts.length), index.capacity, (slot) => slotTexts[slot] !== undefined);
    },
  };
}
