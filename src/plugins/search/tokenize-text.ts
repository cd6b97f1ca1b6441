/**
 * Text to index terms: split tool names and prose into words (`_ - . __`, camelCase, punctuation),
 * lower-case them, drop words that say nothing about a tool ("the", "please", "can"), and stem the
 * rest, so "listPullRequests", "list_pull_requests" and "listing pull requests" share their terms.
 */
import { stemWord } from "./stem-word.js";

/**
 * Words that carry no meaning about which tool fits: articles, pronouns, auxiliaries, politeness.
 * "all", "each" and "every" stay: they are how people ask for work over many items.
 */
const STOP_WORDS = new Set(
  (
    "a an the and or but if then than so of to in on at by for from with without into onto about as is are was were be been being " +
    "am do does did doing done have has had having i me my mine we us our ours you your yours he him his she her hers it its they them their theirs " +
    "this that these those there here what which who whom whose when where why how can could would should will shall may might must " +
    "please pls just also too very really some any thing things stuff s t d ll re ve m up out over got let lets want need like " +
    "tell give see know think go going gonna wanna ahead hey hi thanks thank ok okay yes no not"
  ).split(" "),
);

/**
 * Words as written: runs of letters and digits, camelCase and letter-digit boundaries split.
 * Every pattern looks at a fixed number of characters per position: `([A-Z]+)([A-Z][a-z])`, its
 * predecessor, backtracked over each run of capitals from every start, and 60,000 capitals from
 * sandboxed code blocked the host for 20 s.
 */
export function splitWords(text: string): string[] {
  // Lower-casing can turn a character beyond ASCII into a letter ("K", the Kelvin sign): such text takes the patterns.
  if (!ASCII_ONLY.test(text)) return splitWordsByPattern(text);
  const words: string[] = [];
  const scanner = new WordScanner(text);
  while (scanner.next()) words.push(text.slice(scanner.start, scanner.end).toLowerCase());
  return words;
}

/**
 * The words of ASCII text as positions, `text.slice(start, end)` each (lower-case it for the word):
 * the index looks words up by their characters without making a string for one seen before.
 *
 * @example
 * const scanner = new WordScanner("listPullRequests");
 * while (scanner.next()) console.log(scanner.start, scanner.end); // 0 4, 4 8, 8 16
 */
export class WordScanner {
  /** Where the current word starts and ends. */
  start = 0;
  end = 0;
  #at = 0;

  constructor(private text: string) {}

  /** Scan another text with the same scanner. */
  reset(text: string): void {
    this.text = text;
    this.#at = 0;
  }

  /** Moves to the next word; false when there is none. */
  next(): boolean {
    const { text } = this;
    let at = this.#at;
    while (at < text.length && characterKind(text.charCodeAt(at)) === OTHER) at++;
    if (at >= text.length) return false;
    this.start = at;
    for (at++; at < text.length; at++) {
      const kind = characterKind(text.charCodeAt(at));
      if (kind === OTHER) break;
      // The same boundaries as the patterns: "listPull" → list|Pull, "HTTPServer" → HTTP|Server.
      if (kind !== UPPER) continue;
      const before = characterKind(text.charCodeAt(at - 1));
      if (before === LOWER || (before === UPPER && at + 1 < text.length && characterKind(text.charCodeAt(at + 1)) === LOWER)) break;
    }
    this.end = this.#at = at;
    return true;
  }
}

/** Is the text ASCII only (then `scanWords` splits it as `splitWords` does)? */
export function isAscii(text: string): boolean {
  return ASCII_ONLY.test(text);
}

const ASCII_ONLY = /^[\x00-\x7f]*$/;
const OTHER = 0;
const LOWER = 1;
const UPPER = 2;
const DIGIT = 3;

function characterKind(code: number): number {
  if (code >= 97 && code <= 122) return LOWER;
  if (code >= 65 && code <= 90) return UPPER;
  if (code >= 48 && code <= 57) return DIGIT;
  return OTHER;
}

/** The pattern form, for text beyond ASCII; the scan above gives the same words for ASCII text, without the intermediate strings. */
function splitWordsByPattern(text: string): string[] {
  return text
    .replace(/([a-z])(?=[A-Z])/g, "$1 ")
    .replace(/([A-Z])(?=[A-Z][a-z])/g, "$1 ")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 0);
}

/** Is this word only noise for ranking (a stop word, a lone letter, a number)? */
export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word) || word.length < 2 || /^\d+$/.test(word);
}

/**
 * The index terms of a text, in order, repeats kept (term frequency counts them).
 *
 * @example
 * tokenizeText("listPullRequests: Lists the open pull requests");
 * // ["list", "pull", "request", "list", "open", "pull", "request"]
 */
export function tokenizeText(text: string): string[] {
  const terms: string[] = [];
  for (const word of splitWords(text)) if (!isStopWord(word)) terms.push(stemOf(word));
  return terms;
}

/** Stems of words seen before: tool catalogs repeat their vocabulary, and stemming is the cost of indexing. */
const stems = new Map<string, string>();
const MAX_CACHED_STEMS = 50_000;

/** The word's stem (`stemWord`), from a cache of the words seen before. */
export function stemOf(word: string): string {
  let stem = stems.get(word);
  if (stem === undefined) {
    stem = stemWord(word);
    if (stems.size >= MAX_CACHED_STEMS) stems.clear();
    stems.set(word, stem);
  }
  return stem;
}
