/**
 * Redaction done on a value's JSON text, a token at a time, as steps a caller can run in slices: the
 * execution log snapshots a large argument or answer as text on the call path and redacts it later
 * in its flush, yielding between slices, so a 250,000-key answer never holds the host's event loop
 * for a whole walk, and is never parsed again.
 */
import type { RedactionRules } from "./redacted-json-prefix.js";
import { REDACTED } from "./scrub-secrets.js";

/** Tokens handled between two points where the steps may pause. */
export const TOKENS_PER_STEP = 1024;
/** The longest stretch `runSliced` runs before it lets the event loop turn, in ms. */
export const SLICE_MS = 2;

/** A string, a bracket, a comma or colon, or a scalar (number, true, false, null); whitespace between tokens is skipped. */
const TOKEN_SOURCE = /"[^"\\]*(?:\\.[^"\\]*)*"|[{}[\],:]|[^"{}[\],:\s]+/.source;
const REDACTED_JSON = JSON.stringify(REDACTED);
const QUOTE = 0x22;
const COLON = 0x3a;
const OPEN = new Set([0x7b, 0x5b]);
const CLOSE = new Set([0x7d, 0x5d]);

/** The string a string token holds. */
const stringOf = (token: string): string => (token.includes("\\") ? (JSON.parse(token) as string) : token.slice(1, -1));

/** Whether the string token that ended at `index` is a key (a colon follows it). */
function isKeyAt(text: string, index: number): boolean {
  let at = index;
  // JSON's whitespace: space, tab, line feed, carriage return.
  for (let code = text.charCodeAt(at); code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d; code = text.charCodeAt(++at));
  return text.charCodeAt(at) === COLON;
}

const isNumberToken = (token: string) => token[0] === "-" || (token[0]! >= "0" && token[0]! <= "9");

/**
 * Adds to `found` the strings and numbers under secret-looking keys anywhere in the JSON `text` (in
 * objects and arrays under such a key too), as `Redactor.secretValues` does for a value.
 */
export function* collectSecretValuesInText(text: string, isSecretKey: (key: string) => boolean, found: Set<string>): Generator<void, void> {
  const tokens = new RegExp(TOKEN_SOURCE, "g");
  // Whether each open container, and the next value, lie under a secret-looking key.
  const containers: boolean[] = [];
  let under = false;
  let steps = 0;
  for (let match = tokens.exec(text); match !== null; match = tokens.exec(text)) {
    if (++steps % TOKENS_PER_STEP === 0) yield;
    const token = match[0];
    const first = token.charCodeAt(0);
    if (first === QUOTE) {
      if (isKeyAt(text, tokens.lastIndex)) under = containers[containers.length - 1] === true || isSecretKey(stringOf(token));
      else if (under) found.add(stringOf(token));
    } else if (OPEN.has(first)) containers.push(under);
    else if (CLOSE.has(first)) {
      containers.pop();
      under = containers[containers.length - 1] === true;
    } else if (under && isNumberToken(token)) found.add(String(JSON.parse(token)));
  }
}

/** Skips the value whose first token is `first` (a whole object or array), pausing as it goes. */
function* skipValue(text: string, tokens: RegExp, first: string): Generator<void, void> {
  if (!OPEN.has(first.charCodeAt(0))) return;
  let depth = 1;
  let steps = 0;
  for (let match = tokens.exec(text); match !== null && depth > 0; match = depth > 0 ? tokens.exec(text) : null) {
    if (++steps % TOKENS_PER_STEP === 0) yield;
    const code = match[0].charCodeAt(0);
    if (OPEN.has(code)) depth++;
    else if (CLOSE.has(code)) depth--;
  }
}

/**
 * At least the first `maxChars` characters (all, when shorter) of the redacted JSON of the value
 * whose JSON is `text`: the same text `JSON.stringify(redact(JSON.parse(text)))` gives for JSON as
 * `JSON.stringify` writes it, keys in the text's order. Each string and key written is scrubbed
 * whole, so a secret cannot be cut in half at the end and escape.
 */
export function* redactJsonText(text: string, rules: RedactionRules, maxChars: number): Generator<void, string> {
  const tokens = new RegExp(TOKEN_SOURCE, "g");
  const parts: string[] = [];
  let length = 0;
  let steps = 0;
  const push = (part: string) => {
    parts.push(part);
    length += part.length;
  };
  for (let match = tokens.exec(text); match !== null && length < maxChars; match = tokens.exec(text)) {
    if (++steps % TOKENS_PER_STEP === 0) yield;
    const token = match[0];
    if (token.charCodeAt(0) === QUOTE) {
      const content = stringOf(token);
      const scrubbed = rules.scrub(content);
      push(scrubbed === content ? token : JSON.stringify(scrubbed));
      if (!isKeyAt(text, tokens.lastIndex) || !rules.isSecretKey(content)) continue;
      // A secret-looking key's value is hidden unless it is empty, as the redacting walk does.
      tokens.exec(text);
      const value = tokens.exec(text)?.[0] ?? "null";
      push(`:${value === "null" || value === '""' ? value : REDACTED_JSON}`);
      yield* skipValue(text, tokens, value);
    } else if (isNumberToken(token) && rules.exactSecrets.size > 0 && rules.exactSecrets.has(String(JSON.parse(token)))) push(REDACTED_JSON);
    else push(token);
  }
  return parts.join("");
}

/** Run `steps` to the end at once: for the last moment of a process, when nothing asynchronous runs. */
export function runNow<T>(steps: Generator<void, T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** Run `steps` to the end, letting the event loop turn whenever a slice has run `SLICE_MS`. */
export async function runSliced<T>(steps: Generator<void, T>): Promise<T> {
  let started = performance.now();
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    if (performance.now() - started >= SLICE_MS) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      started = performance.now();
    }
  }
}
