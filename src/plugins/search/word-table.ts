/**
 * Values by word, looked up by the word's place in a text: a catalog repeats its vocabulary, and at
 * 10,000 tools making a lower-case string of each of ~400,000 words only to look it up in a Map was
 * most of tokenizing. Open addressing over the lower-cased characters (FNV-1a); a word gets its
 * string only the first time it is seen.
 */

const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;
const INITIAL_SLOTS = 4_096;

/** Lower-case of an ASCII character code. */
const lower = (code: number) => (code >= 65 && code <= 90 ? code + 32 : code);

/** Does `word` equal the lower-cased `text.slice(start, end)`? */
function matches(word: string, text: string, start: number, end: number): boolean {
  if (word.length !== end - start) return false;
  for (let at = 0; at < word.length; at++) if (word.charCodeAt(at) !== lower(text.charCodeAt(start + at))) return false;
  return true;
}

export class WordTable<T> {
  #words: Array<string | undefined> = [];
  #values: Array<T | undefined> = [];
  #hashes = new Int32Array(0);
  #size = 0;

  /** Past `maxSize` words the table starts over: a server's endless new words must not grow it without bound. */
  constructor(private readonly maxSize: number) {
    this.#clear(INITIAL_SLOTS);
  }

  /** The value of the word `text.slice(start, end).toLowerCase()` in ASCII text, from `make` the first time. */
  get(text: string, start: number, end: number, make: (word: string) => T): T {
    let hash = FNV_OFFSET;
    for (let at = start; at < end; at++) hash = Math.imul(hash ^ lower(text.charCodeAt(at)), FNV_PRIME);
    const mask = this.#hashes.length - 1;
    let slot = hash & mask;
    for (let word = this.#words[slot]; word !== undefined; word = this.#words[slot]) {
      if (this.#hashes[slot] === hash && matches(word, text, start, end)) return this.#values[slot] as T;
      slot = (slot + 1) & mask;
    }
    const word = text.slice(start, end).toLowerCase();
    const value = make(word);
    if (this.#size >= this.maxSize) this.#clear(INITIAL_SLOTS);
    else if (2 * (this.#size + 1) > this.#hashes.length) this.#grow();
    this.#place(word, hash, value);
    return value;
  }

  #place(word: string, hash: number, value: T): void {
    const mask = this.#hashes.length - 1;
    let slot = hash & mask;
    while (this.#words[slot] !== undefined) slot = (slot + 1) & mask;
    this.#words[slot] = word;
    this.#values[slot] = value;
    this.#hashes[slot] = hash;
    this.#size++;
  }

  #clear(slots: number): void {
    this.#words = new Array<string | undefined>(slots).fill(undefined);
    this.#values = new Array<T | undefined>(slots).fill(undefined);
    this.#hashes = new Int32Array(slots);
    this.#size = 0;
  }

  #grow(): void {
    const words = this.#words;
    const values = this.#values;
    const hashes = this.#hashes;
    this.#clear(2 * hashes.length);
    words.forEach((word, slot) => {
      if (word !== undefined) this.#place(word, hashes[slot] as number, values[slot] as T);
    });
  }
}
