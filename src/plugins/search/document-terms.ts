/**
 * A tool's fields as term ids with counts, in one Int32Array per tool. Each distinct word is
 * tokenized once per process (its stem, whether it is a stop word, its form as written, the parts
 * of a compound), and counting uses scratch arrays by term id, so indexing a tool allocates little
 * beyond its words and its one array.
 *
 * The array: each field's length in terms, where each field's entries end, then the entries —
 * (term id, count) pairs, field by field in FIELDS order, each term once per field.
 */
import { isKnownTerm } from "./related-words.js";
import { stemWord } from "./stem-word.js";
import type { TermVocabulary } from "./term-vocabulary.js";
import { isAscii, isStopWord, splitWords, WordScanner } from "./tokenize-text.js";
import { WordTable } from "./word-table.js";
import { KeptWordRanks, type RankOfWord } from "./kept-word-ranks.js";

/**
 * A field's text: one string, or parts that joined make it — each part's words are its own (parts
 * meet at spaces or at the part's edges, which a word never crosses), so no joined string is made.
 */
export type FieldText = string | readonly string[];

/**
 * Most characters of one field the index reads: past this a description says nothing more about
 * what the tool is for, and a 5 MB description from a server must not cost every search.
 */
export const MAX_INDEXED_FIELD_LENGTH = 10_000;

/** How many fields a document has (FIELDS in tool-document). */
export const FIELD_COUNT = 6;
const ENDS = FIELD_COUNT;
const ENTRIES = 2 * FIELD_COUNT;
/** The fields whose words also count as written and by the parts of a compound: the name and the server. */
const NAME_FIELDS = 2;

/** A field's length in terms (words as written not counted). */
export function fieldLength(terms: Int32Array, field: number): number {
  return terms[field] as number;
}

/** How many (term, count) entries the document has. */
export function entryCount(terms: Int32Array): number {
  return (terms.length - ENTRIES) / 2;
}

/** The term id of entry `entry`. */
export function entryTerm(terms: Int32Array, entry: number): number {
  return terms[ENTRIES + 2 * entry] as number;
}

/** The count of entry `entry`. */
export function entryCountOf(terms: Int32Array, entry: number): number {
  return terms[ENTRIES + 2 * entry + 1] as number;
}

/** One past the last entry of `field`. */
export function fieldEnd(terms: Int32Array, field: number): number {
  return terms[ENDS + field] as number;
}

/** Shortest part of a compound name word worth splitting off ("work" + "log"). */
const SHORTEST_COMPOUND_PART = 3;
/** Longest word tried as a compound: each split point stems both halves, so the cost grows with the square of its length. */
const LONGEST_COMPOUND = 40;

/**
 * The two known words a compound is made of, when it is one: names often run words together
 * (`worklog`, `freebusy`, `gsheets`) where people write them apart.
 */
export function splitCompound(word: string): [string, string] | undefined {
  if (word.length < 2 * SHORTEST_COMPOUND_PART || word.length > LONGEST_COMPOUND || isKnownTerm(stemWord(word))) return undefined;
  for (let at = SHORTEST_COMPOUND_PART; at <= word.length - SHORTEST_COMPOUND_PART; at++) {
    const left = word.slice(0, at);
    const right = word.slice(at);
    if (isKnownTerm(stemWord(left)) && isKnownTerm(stemWord(right))) return [left, right];
  }
  // A one-letter brand prefix: "gsheets", "gdrive".
  const rest = word.slice(1);
  if (isKnownTerm(stemWord(rest))) return [word[0] as string, rest];
  return undefined;
}

/** A word as written, kept apart from the stems: "=tables". */
export function surfaceTerm(word: string): string {
  return `=${word}`;
}

/** What one word contributes to a field's terms. */
interface WordTerms {
  /** Its stem; undefined for a stop word. */
  stem: string | undefined;
  /** The word, lower-cased. */
  word: string;
  /** The word as written (`=tables`), for the name fields; made when a name first has the word. */
  surface: string | undefined;
  /** The stems of the compound's parts (not stop words), worked out when a name first has the word. */
  parts: readonly string[] | undefined;
  /** The vocabulary that last counted the word, by its serial number (not a reference: a closed executor's index must not stay reachable from this cache), and the stem's id there. */
  vocabulary: number;
  stemId: number;
  /** The word's rank in a set of word vectors (-1: none), remembered for the set of serial `vectorsSerial` (see embed-with-word-vectors). */
  vectorRank: number;
  vectorsSerial: number;
}

/** Words seen before: tool catalogs repeat their vocabulary, and stemming is the cost of indexing. */
const MAX_CACHED_WORDS = 50_000;
const words = new WordTable<WordTerms>(MAX_CACHED_WORDS);

function makeWordTerms(word: string): WordTerms {
  return { stem: isStopWord(word) ? undefined : stemWord(word), word, surface: undefined, parts: undefined, vocabulary: -1, stemId: -1, vectorRank: -1, vectorsSerial: -1 };
}

function compoundStems(terms: WordTerms, text: string, start: number, end: number): readonly string[] {
  return (terms.parts ??= (splitCompound(text.slice(start, end).toLowerCase()) ?? []).filter((part) => !isStopWord(part)).map(stemWord));
}

/** Counts a document's terms into its array; one per index, as term ids are the index's. */
export class TermCounter {
  /** Each term's count in the field being counted, by id; zero again once the field is done. */
  #counts = new Int32Array(1_024);
  /** The field's terms in the order they first came. */
  #touched = new Int32Array(256);
  #touchedCount = 0;
  /** The document's array as it is filled: the header, then the entries so far. */
  #document = new Int32Array(1_024);
  #size = ENTRIES;
  readonly #scanner = new WordScanner("");
  /** The word-vector ranks of each document's name and summary words (see kept-word-ranks), when kept. */
  #kept: KeptWordRanks | undefined;
  #rankerAsked = false;
  /** Was the last document's name cut? Then its words here are not all the words the vectors embed. */
  #nameCut = false;

  /**
   * With `rankOfWord` (asked on the first document; undefined when the vectors cannot be read), the
   * counter keeps the word-vector rank of each word of a document's name and summary: `embeddingRanks()`.
   */
  constructor(
    private readonly vocabulary: TermVocabulary,
    private readonly rankOfWord?: () => RankOfWord | undefined,
  ) {}

  /**
   * The ranks of the words of the last document's name and summary (the first part of its summary
   * field), in the order counted — what the word vectors add up for it — as
   * `embeddingRanks().subarray(embeddingFrom, embeddingTo)`; undefined when not kept or when the
   * name was cut to MAX_INDEXED_FIELD_LENGTH.
   */
  embeddingRanks(): Int32Array | undefined {
    return this.#nameCut ? undefined : this.#kept?.ranks;
  }

  get embeddingFrom(): number {
    return this.#kept?.from ?? 0;
  }

  get embeddingTo(): number {
    return this.#kept?.to ?? 0;
  }

  /**
   * The terms array of a document whose fields have these texts (in FIELDS order), each read up to
   * MAX_INDEXED_FIELD_LENGTH characters.
   */
  count(fields: readonly FieldText[]): Int32Array {
    this.#size = ENTRIES;
    if (!this.#rankerAsked && this.rankOfWord) {
      this.#rankerAsked = true;
      const rankOf = this.rankOfWord();
      if (rankOf) this.#kept = new KeptWordRanks(rankOf);
    }
    this.#kept?.start();
    this.#nameCut = false;
    for (let field = 0; field < fields.length; field++) {
      const text = fields[field] as FieldText;
      let length = 0;
      // The name (field 0) and the summary (the first part of field 2) are the texts the word vectors embed.
      if (typeof text === "string") {
        if (text.length > MAX_INDEXED_FIELD_LENGTH && field === 0) this.#nameCut = true;
        length = this.#countText(text.length > MAX_INDEXED_FIELD_LENGTH ? text.slice(0, MAX_INDEXED_FIELD_LENGTH) : text, field, field === 0 ? this.#kept : undefined);
      } else {
        let left = MAX_INDEXED_FIELD_LENGTH;
        for (let at = 0; at < text.length && left > 0; at++) {
          const part = text[at] as string;
          // A part of one character is a space between parts, or a word too short to count (a stop word, which adds no vector either).
          if (part.length > 1) length += this.#countText(part.length > left ? part.slice(0, left) : part, field, field === 2 && at === 0 ? this.#kept : undefined);
          left -= part.length;
        }
      }
      this.#flush();
      this.#document[field] = length;
      this.#document[ENDS + field] = (this.#size - ENTRIES) / 2;
    }
    return this.#document.slice(0, this.#size);
  }

  /** Counts the words of one text into the field; returns what they add to its length. With `kept`, keeps their word-vector ranks. */
  #countText(text: string, field: number, kept?: KeptWordRanks): number {
    let length = 0;
    if (isAscii(text)) {
      const scanner = this.#scanner;
      scanner.reset(text);
      while (scanner.next()) {
        const terms = words.get(text, scanner.start, scanner.end, makeWordTerms);
        if (kept) kept.push(kept.rankOf(terms));
        length += this.#countWord(terms, field, text, scanner.start, scanner.end);
      }
    } else {
      // The pattern form's words are lower-case ASCII: the same table finds them.
      for (const word of splitWords(text)) {
        const terms = words.get(word, 0, word.length, makeWordTerms);
        if (kept) kept.push(kept.rankOf(terms));
        length += this.#countWord(terms, field, word, 0, word.length);
      }
    }
    return length;
  }

  /**
   * Counts one word (`text.slice(start, end)`, lower-cased) into the field; returns what it adds to
   * the field's length. A name's word also counts as written, and by the parts of a compound.
   */
  #countWord(terms: WordTerms, field: number, text: string, start: number, end: number): number {
    if (terms.stem === undefined) return 0;
    this.#add(this.#idOf(terms), 1);
    if (field >= NAME_FIELDS) return 1;
    this.#add(this.vocabulary.intern((terms.surface ??= surfaceTerm(terms.word))), 0);
    const parts = compoundStems(terms, text, start, end);
    for (const part of parts) this.#add(this.vocabulary.intern(part), 1);
    return 1 + parts.length;
  }

  /** The stem's id, remembered with the word while it stays this vocabulary's id for the stem (ids are reused). */
  #idOf(terms: WordTerms): number {
    if (terms.vocabulary === this.vocabulary.serial && this.vocabulary.term(terms.stemId) === terms.stem) return terms.stemId;
    terms.vocabulary = this.vocabulary.serial;
    return (terms.stemId = this.vocabulary.intern(terms.stem as string));
  }

  /** Adds `by` to the term's count in the field; 0 sets it to 1 (a word as written counts once). */
  #add(id: number, by: number): void {
    if (id >= this.#counts.length) this.#counts = grown(this.#counts, id + 1);
    const count = this.#counts[id] as number;
    if (count === 0) {
      if (this.#touchedCount === this.#touched.length) this.#touched = grown(this.#touched, this.#touchedCount + 1);
      this.#touched[this.#touchedCount++] = id;
    }
    this.#counts[id] = by === 0 ? 1 : count + by;
  }

  /** The field's entries in the order their terms first came, and the scratch counts back to zero. */
  #flush(): void {
    if (this.#size + 2 * this.#touchedCount > this.#document.length) this.#document = grown(this.#document, this.#size + 2 * this.#touchedCount);
    for (let at = 0; at < this.#touchedCount; at++) {
      const id = this.#touched[at] as number;
      this.#document[this.#size++] = id;
      this.#document[this.#size++] = this.#counts[id] as number;
      this.#counts[id] = 0;
    }
    this.#touchedCount = 0;
  }
}

/** A copy of the array with room for at least `length` numbers. */
function grown(array: Int32Array, length: number): Int32Array<ArrayBuffer> {
  const copy = new Int32Array(Math.max(length, 2 * array.length));
  copy.set(array);
  return copy;
}
