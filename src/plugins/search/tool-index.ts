/**
 * The search index over every registry tool: BM25F over the fields of `tool-document`, kept
 * current incrementally — `update(tools)` re-indexes only the tools whose definition changed and
 * drops the ones that left, adjusting document frequencies and field lengths as it goes.
 */
import { performance } from "node:perf_hooks";
import type { ToolDefinition } from "../../core/plugin-contract.js";
import type { BuiltInKind } from "./built-in-intents.js";
import { entryCount, entryTerm, fieldEnd, fieldLength, TermCounter } from "./document-terms.js";
import { PREFIX_LENGTH, TermVocabulary } from "./term-vocabulary.js";
import type { RankOfWord } from "./kept-word-ranks.js";
import { FIELDS, fingerprintTool, toToolDocument, type Field, type ToolDocument } from "./tool-document.js";

/** What changed in one `update`. */
export interface IndexUpdate {
  added: number;
  changed: number;
  removed: number;
}

/** The read side the ranker needs. */
export interface IndexStatistics {
  /** How many tools are indexed. */
  size: number;
  /** One more than the highest document slot: the length of a score array. */
  capacity: number;
  /** Goes up with every change to the indexed tools: scores cached under an older version are stale. */
  version: number;
  /** How many tools have the term in any field. */
  documentFrequency(term: string): number;
  /** The term's id, which documents' `terms` hold (see document-terms); undefined for a term no tool has. */
  termId(term: string): number | undefined;
  /** The tools that have the term in any field, in the order they were indexed (a live view: copy it to keep it). */
  postings(term: string): readonly ToolDocument[];
  /** The version at which the term's tools last changed (infinite for a term no tool has): scores gathered since are current but for the field lengths. */
  termChangedAt(term: string): number;
  /** The tools added and removed since `version`, in order; undefined when that is too far back to tell (then look at every document). */
  changesSince(version: number): readonly IndexChange[] | undefined;
  /** The indexed stems that begin with `prefix` (at least {@link PREFIX_LENGTH} characters), for matching part of a word. */
  termsStartingWith(prefix: string): string[];
  /** Mean length of a field over all tools (at least 1, so an empty field never divides by zero). */
  averageLength(field: Field): number;
  document(name: string): ToolDocument | undefined;
  /** The stems of every server's name: a request that uses one names a product. */
  serverTerms(): ReadonlySet<string>;
  /** The registered built-in of a kind (`code_execution`, `request_human_input`), if any. */
  builtIn(kind: BuiltInKind): ToolDocument | undefined;
  documents(): IterableIterator<ToolDocument>;
}

/** One tool added to the index or removed from it, at a version. */
export interface IndexChange {
  version: number;
  document: ToolDocument;
  added: boolean;
}

/** Most changes remembered for `changesSince`; past it the oldest half is forgotten. */
const MAX_REMEMBERED_CHANGES = 4_096;

/** An update done in slices: each `step` indexes tools until the deadline passes. */
export interface IndexJob {
  /** Index more tools until `deadline` (a `performance.now()` time); true once the index matches the listing. */
  step(deadline: number): boolean;
  /** What changed so far. */
  readonly result: IndexUpdate;
}

export interface ToolIndex extends IndexStatistics {
  update(tools: readonly ToolDefinition[]): IndexUpdate;
  /**
   * The same update, resumable: the search plugin builds the index in slices that leave the event
   * loop free between them. Until the job is done the index is part old, part new.
   */
  begin(tools: readonly ToolDefinition[]): IndexJob;
}

/** Tools indexed between two looks at the clock. */
const TOOLS_PER_CLOCK_CHECK = 32;

export { PREFIX_LENGTH };

/**
 * An empty index; feed it with `update(listTools())` and again whenever the tools change.
 *
 * @example
 * const index = createToolIndex();
 * index.update(context.listTools()); // { added: 156, changed: 0, removed: 0 }
 *
 * With `rankOfWord` each new document keeps the word-vector ranks of the words of its name and
 * summary (see `ToolDocument.embeddingRanks`), for the word vectors' index.
 */
export function createToolIndex(options: { rankOfWord?: () => RankOfWord | undefined } = {}): ToolIndex {
  const byName = new Map<string, ToolDocument>();
  const vocabulary = new TermVocabulary();
  const counter = new TermCounter(vocabulary, options.rankOfWord);
  const totalLengths = FIELDS.map(() => 0);

  /** Recent changes, for the semantic index to follow without a pass over every tool. */
  let changes: IndexChange[] = [];
  /** Changes at or below this version are forgotten. */
  let forgottenThrough = -1;
  const remember = (document: ToolDocument, added: boolean) => {
    changes.push({ version, document, added });
    if (changes.length <= MAX_REMEMBERED_CHANGES) return;
    const kept = changes.slice(Math.floor(changes.length / 2));
    forgottenThrough = (changes[changes.length - kept.length - 1] as IndexChange).version;
    changes = kept;
  };
  /** Each server-name stem with how many tools carry it, kept as tools come and go, so a change costs no pass over every tool. */
  const serverCounts = new Map<string, number>();
  const servers = new Set<string>();
  /** Cached until the tools change. */
  let builtIns: Map<BuiltInKind, ToolDocument> | undefined;
  /** Slots freed by removed tools, reused before new ones. */
  const freeSlots: number[] = [];
  let capacity = 0;
  let version = 0;
  /** Counts the document's server-name terms (the stems and words as written of its server field) in or out. */
  const countServerTerms = (document: ToolDocument, by: 1 | -1) => {
    const { terms } = document;
    for (let entry = fieldEnd(terms, 0); entry < fieldEnd(terms, 1); entry++) {
      const term = vocabulary.term(entryTerm(terms, entry));
      const count = (serverCounts.get(term) ?? 0) + by;
      if (count > 0) serverCounts.set(term, count);
      else serverCounts.delete(term);
      if (count === 1 && by === 1) servers.add(term);
      else if (count <= 0) servers.delete(term);
    }
  };
  const add = (document: ToolDocument) => {
    version++;
    remember(document, true);
    document.slot = freeSlots.pop() ?? capacity++;
    countServerTerms(document, 1);
    builtIns = undefined;
    byName.set(document.name, document);
    const { terms } = document;
    for (let field = 0; field < FIELDS.length; field++) totalLengths[field] = (totalLengths[field] as number) + fieldLength(terms, field);
    for (let entry = 0; entry < entryCount(terms); entry++) vocabulary.post(entryTerm(terms, entry), document, version);
  };
  const remove = (document: ToolDocument) => {
    version++;
    if (document.listedIn === listing) listed--;
    remember(document, false);
    freeSlots.push(document.slot);
    countServerTerms(document, -1);
    builtIns = undefined;
    byName.delete(document.name);
    const { terms } = document;
    for (let field = 0; field < FIELDS.length; field++) totalLengths[field] = (totalLengths[field] as number) - fieldLength(terms, field);
    for (let entry = 0; entry < entryCount(terms); entry++) vocabulary.unpost(entryTerm(terms, entry), document, version);
  };

  /** The tool's document, indexed anew only when its definition changed. */
  const indexOne = (tool: ToolDefinition, result: IndexUpdate): ToolDocument => {
    const before = byName.get(tool.name);
    // Definitions are usually the same objects from one listing to the next (the registry reuses
    // them on the same terms): the object indexed last time is skipped without a fingerprint.
    if (before && before.definition === tool) return before;
    // A new name needs no fingerprint now: its document computes one if the tool is listed again.
    const fingerprint = before ? fingerprintTool(tool) : undefined;
    if (before && before.fingerprint === fingerprint) {
      before.definition = tool;
      return before;
    }
    // The old document leaves first: the terms only it had free their ids before the new one takes ids.
    if (before) remove(before);
    const document = toToolDocument(tool, counter, fingerprint);
    add(document);
    if (before) result.changed++;
    else result.added++;
    return document;
  };
  /** Each update's number: a document marked with it was in that update's listing. */
  let listing = 0;
  /** Documents of the latest update's listing so far, each counted once: when they are all the index has, none is left to remove. */
  let listed = 0;
  const begin = (tools: readonly ToolDefinition[]): IndexJob => {
    const result: IndexUpdate = { added: 0, changed: 0, removed: 0 };
    const generation = ++listing;
    listed = 0;
    let next = 0;
    let done = false;
    const step = (deadline: number): boolean => {
      while (!done && next < tools.length) {
        const end = Math.min(tools.length, next + TOOLS_PER_CLOCK_CHECK);
        for (; next < end; next++) {
          const document = indexOne(tools[next] as ToolDefinition, result);
          if (document.listedIn === generation) continue;
          document.listedIn = generation;
          listed++;
        }
        if (next < tools.length && performance.now() >= deadline) return false;
      }
      if (!done && listed < byName.size) {
        for (const document of [...byName.values()]) {
          if (document.listedIn === generation) continue;
          remove(document);
          result.removed++;
        }
      }
      done = true;
      return true;
    };
    return { step, result };
  };

  return {
    get size() {
      return byName.size;
    },
    get capacity() {
      return capacity;
    },
    get version() {
      return version;
    },
    update(tools) {
      const job = begin(tools);
      job.step(Number.POSITIVE_INFINITY);
      return job.result;
    },
    begin,
    documentFrequency: (term) => vocabulary.postings(term).length,
    termId: (term) => vocabulary.id(term),
    postings: (term) => vocabulary.postings(term),
    termChangedAt: (term) => vocabulary.changedAt(term),
    changesSince(since) {
      if (since < forgottenThrough) return undefined;
      let first = changes.length;
      while (first > 0 && (changes[first - 1] as IndexChange).version > since) first--;
      return changes.slice(first);
    },
    termsStartingWith: (prefix) => vocabulary.startingWith(prefix),
    averageLength: (field) => Math.max(1, byName.size === 0 ? 1 : (totalLengths[FIELDS.indexOf(field)] as number) / byName.size),
    document: (name) => byName.get(name),
    serverTerms: () => servers,
    builtIn(kind) {
      if (!builtIns) {
        builtIns = new Map();
        for (const document of byName.values()) if (document.builtIn && !builtIns.has(document.builtIn)) builtIns.set(document.builtIn, document);
      }
      return builtIns.get(kind);
    },
    documents: () => byName.values(),
  };
}
