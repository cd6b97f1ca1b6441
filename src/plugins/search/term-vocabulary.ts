/**
 * An index's terms as small integers: each distinct term is interned once, and everything per term
 * (its tools, when they last changed) sits in arrays by that id. A document then holds its terms as
 * an Int32Array rather than a map of strings per field — at 10,000 tools the first build made
 * ~60,000 such maps, and collecting them was a third of its time. An id is freed when its last tool
 * leaves and may be reused by another term, so nothing outside the index keeps ids.
 */
import type { ToolDocument } from "./tool-document.js";

/** The stems are grouped by their first characters, so a part of a word finds its completions without a pass over the vocabulary. */
export const PREFIX_LENGTH = 3;

/** A stem, not a word as written (`=tables`): only stems take part in matching part of a word. */
const isStem = (term: string) => term.length >= PREFIX_LENGTH && !term.startsWith("=");

/** Is the term a word as written (`=tables`)? Those do not count towards a field's length. */
export const isSurfaceTerm = (term: string) => term.startsWith("=");

const NO_DOCUMENTS: readonly ToolDocument[] = [];

/** Vocabularies made so far: each has its own serial number. */
let made = 0;

export class TermVocabulary {
  /** Tells this vocabulary apart from every other in the process, without holding on to it. */
  readonly serial = made++;
  readonly #ids = new Map<string, number>();
  /** By id: the term, its tools in the order they were indexed, the index version they last changed at. */
  readonly #terms: Array<string | undefined> = [];
  readonly #postings: ToolDocument[][] = [];
  readonly #changedAt: number[] = [];
  readonly #surface: boolean[] = [];
  readonly #free: number[] = [];
  /** The vocabulary's stems by their first PREFIX_LENGTH characters, kept as terms come and go. */
  readonly #byPrefix = new Map<string, Set<string>>();

  /** The term's id, made when the term is new (it has no tools until a document with it is added). */
  intern(term: string): number {
    let id = this.#ids.get(term);
    if (id !== undefined) return id;
    id = this.#free.pop() ?? this.#terms.length;
    this.#ids.set(term, id);
    this.#terms[id] = term;
    this.#postings[id] = [];
    this.#changedAt[id] = 0;
    this.#surface[id] = isSurfaceTerm(term);
    if (isStem(term)) {
      const key = term.slice(0, PREFIX_LENGTH);
      const group = this.#byPrefix.get(key);
      if (group) group.add(term);
      else this.#byPrefix.set(key, new Set([term]));
    }
    return id;
  }

  /** One more than the highest id given: the length of an array by term id. */
  get capacity(): number {
    return this.#terms.length;
  }

  id(term: string): number | undefined {
    return this.#ids.get(term);
  }

  term(id: number): string {
    return this.#terms[id] as string;
  }

  isSurface(id: number): boolean {
    return this.#surface[id] === true;
  }

  /** The document joins the term's tools (once, however many of its fields have the term). */
  post(id: number, document: ToolDocument, version: number): void {
    const documents = this.#postings[id] as ToolDocument[];
    this.#changedAt[id] = version;
    // The tool being added is the last one appended when another of its fields had the term.
    if (documents[documents.length - 1] !== document) documents.push(document);
  }

  /** Takes the document off the term's tools, and the term out of the vocabulary when no tool is left with it. */
  unpost(id: number, document: ToolDocument, version: number): void {
    // A term in several fields of the document is unposted once per field: the first call did it.
    if (this.#terms[id] === undefined) return;
    const documents = this.#postings[id] as ToolDocument[];
    const at = documents.indexOf(document);
    if (at !== -1) documents.splice(at, 1);
    this.#changedAt[id] = version;
    if (documents.length !== 0) return;
    const term = this.#terms[id] as string;
    this.#ids.delete(term);
    this.#terms[id] = undefined;
    this.#free.push(id);
    const key = term.slice(0, PREFIX_LENGTH);
    const group = this.#byPrefix.get(key);
    group?.delete(term);
    if (group?.size === 0) this.#byPrefix.delete(key);
  }

  postings(term: string): readonly ToolDocument[] {
    const id = this.#ids.get(term);
    return id === undefined ? NO_DOCUMENTS : (this.#postings[id] as ToolDocument[]);
  }

  changedAt(term: string): number {
    const id = this.#ids.get(term);
    return id === undefined ? Number.POSITIVE_INFINITY : (this.#changedAt[id] as number);
  }

  /** The stems that begin with `prefix` (at least {@link PREFIX_LENGTH} characters). */
  startingWith(prefix: string): string[] {
    const group = prefix.length < PREFIX_LENGTH ? undefined : this.#byPrefix.get(prefix.slice(0, PREFIX_LENGTH));
    return group ? [...group].filter((term) => term.startsWith(prefix)) : [];
  }
}
