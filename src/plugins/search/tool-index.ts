/**
 * The search index over every registry tool: BM25F over the fields of `tool-document`, kept
 * current incrementally — `update(tools)` re-indexes only the tools whose definition changed and
 * drops the ones that left, adjusting document frequencies and field lengths as it goes.
 */
import { performance } from "node:perf_hooks";
import type { ToolDefinition } from "../../core/plugin-contract.js";
import type { BuiltInKind } from "./built-in-intents.js";
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

const NO_DOCUMENTS: readonly ToolDocument[] = [];

/**
 * A term's tools with the version they last changed at, in one entry so indexing a term costs one
 * lookup. An array, not a set: at 10,000 tools the first build appends ~300,000 postings, and
 * growing thousands of hash sets is what dominated it. Removal keeps the order (a set's order too).
 */
interface TermEntry {
  documents: ToolDocument[];
  changedAt: number;
}

/** The stems are grouped by their first characters, so a part of a word finds its completions without a pass over the vocabulary. */
export const PREFIX_LENGTH = 3;

/** A stem, not a word as written (`=tables`): only stems take part in matching part of a word. */
const isStem = (term: string) => term.length >= PREFIX_LENGTH && !term.startsWith("=");

/**
 * An empty index; feed it with `update(listTools())` and again whenever the tools change.
 *
 * @example
 * const index = createToolIndex();
 * index.update(context.listTools()); // { added: 156, changed: 0, removed: 0 }
 */
export function createToolIndex(): ToolIndex {
  const byName = new Map<string, ToolDocument>();
  const known = new WeakMap<ToolDefinition, ToolDocument>();
  const inverted = new Map<string, TermEntry>();
  /** The vocabulary's stems by their first PREFIX_LENGTH characters, kept as terms come and go. */
  const byPrefix = new Map<string, Set<string>>();
  const totalLengths = Object.fromEntries(FIELDS.map((field) => [field, 0])) as Record<Field, number>;

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
  const add = (document: ToolDocument) => {
    version++;
    remember(document, true);
    document.slot = freeSlots.pop() ?? capacity++;
    for (const term of document.fields.server.keys()) {
      const count = serverCounts.get(term) ?? 0;
      serverCounts.set(term, count + 1);
      if (count === 0) servers.add(term);
    }
    builtIns = undefined;
    byName.set(document.name, document);
    for (const field of FIELDS) totalLengths[field] += document.lengths[field];
    for (const field of FIELDS) {
      for (const term of document.fields[field].keys()) {
        let entry = inverted.get(term);
        if (!entry) {
          inverted.set(term, (entry = { documents: [], changedAt: version }));
          if (isStem(term)) {
            const key = term.slice(0, PREFIX_LENGTH);
            const group = byPrefix.get(key);
            if (group) group.add(term);
            else byPrefix.set(key, new Set([term]));
          }
        }
        entry.changedAt = version;
        // A term in several fields of one tool is one posting; the tool being added is the last one appended.
        if (entry.documents[entry.documents.length - 1] !== document) entry.documents.push(document);
      }
    }
  };
  const remove = (document: ToolDocument) => {
    version++;
    if (document.listedIn === listing) listed--;
    remember(document, false);
    freeSlots.push(document.slot);
    for (const term of document.fields.server.keys()) {
      const count = (serverCounts.get(term) ?? 1) - 1;
      if (count > 0) serverCounts.set(term, count);
      else {
        serverCounts.delete(term);
        servers.delete(term);
      }
    }
    builtIns = undefined;
    byName.delete(document.name);
    for (const field of FIELDS) totalLengths[field] -= document.lengths[field];
    for (const field of FIELDS) for (const term of document.fields[field].keys()) forget(term, document);
  };
  /** Takes the document off the term's postings, and the term out of the vocabulary when no tool is left with it. */
  const forget = (term: string, document: ToolDocument) => {
    const entry = inverted.get(term);
    if (!entry) return;
    const at = entry.documents.indexOf(document);
    if (at !== -1) entry.documents.splice(at, 1);
    entry.changedAt = version;
    if (entry.documents.length !== 0) return;
    inverted.delete(term);
    const group = byPrefix.get(term.slice(0, PREFIX_LENGTH));
    group?.delete(term);
    if (group?.size === 0) byPrefix.delete(term.slice(0, PREFIX_LENGTH));
  };

  /** The tool's document, indexed anew only when its definition changed. */
  const indexOne = (tool: ToolDefinition, result: IndexUpdate): ToolDocument => {
    const before = byName.get(tool.name);
    // Definitions are usually the same objects from one listing to the next (the registry reuses
    // them on the same terms): an object already indexed is skipped without a fingerprint.
    if (before && known.get(tool) === before) return before;
    // A new name needs no fingerprint now: its document computes one if the tool is listed again.
    const fingerprint = before ? fingerprintTool(tool) : undefined;
    if (before && before.fingerprint === fingerprint) {
      known.set(tool, before);
      return before;
    }
    const document = toToolDocument(tool, fingerprint);
    known.set(tool, document);
    if (before) remove(before);
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
    documentFrequency: (term) => inverted.get(term)?.documents.length ?? 0,
    postings: (term) => inverted.get(term)?.documents ?? NO_DOCUMENTS,
    termChangedAt: (term) => inverted.get(term)?.changedAt ?? Number.POSITIVE_INFINITY,
    changesSince(since) {
      if (since < forgottenThrough) return undefined;
      let first = changes.length;
      while (first > 0 && (changes[first - 1] as IndexChange).version > since) first--;
      return changes.slice(first);
    },
    termsStartingWith(prefix) {
      const group = prefix.length < PREFIX_LENGTH ? undefined : byPrefix.get(prefix.slice(0, PREFIX_LENGTH));
      return group ? [...group].filter((term) => term.startsWith(prefix)) : [];
    },
    averageLength: (field) => Math.max(1, byName.size === 0 ? 1 : totalLengths[field] / byName.size),
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
