/**
 * The fast path of `parseJsonDocument`: over text `JSON.parse` accepted, is there anything only the
 * full parser can report (a repeated key, nesting too deep)? Answered by counting, without the full
 * parser's index of every value.
 */

const isWhitespace = (code: number) => code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;

/**
 * The number of keys in a parsed value, all objects together; -1 when containers nest
 * `maxDepth` deep (the text's brackets nest exactly as the value's containers do).
 */
function countKeys(value: unknown, depth: number, maxDepth: number): number {
  if (value === null || typeof value !== "object") return 0;
  if (depth + 1 >= maxDepth) return -1;
  let count = 0;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const inner = countKeys(value[index], depth + 1, maxDepth);
      if (inner < 0) return -1;
      count += inner;
    }
    return count;
  }
  // `for…in` over an object JSON.parse made sees its own keys only (and allocates no key list).
  for (const key in value) {
    const inner = countKeys((value as Record<string, unknown>)[key], depth + 1, maxDepth);
    if (inner < 0) return -1;
    count += inner + 1;
  }
  return count;
}

/** The number of keys in text `JSON.parse` accepted: strings followed by ':'. */
function countKeysInText(source: string): number {
  let keys = 0;
  // Between two strings valid JSON has no quote, so each search lands on the next string's start.
  let start = source.indexOf('"');
  while (start >= 0) {
    let end = start + 1;
    for (;;) {
      end = source.indexOf('"', end);
      if (end < 0) return -1;
      let backslashes = 0;
      while (source.charCodeAt(end - 1 - backslashes) === 0x5c) backslashes++;
      if (backslashes % 2 === 0) break;
      end++;
    }
    let next = end + 1;
    while (isWhitespace(source.charCodeAt(next))) next++;
    if (source.charCodeAt(next) === 0x3a) keys++;
    start = source.indexOf('"', next);
  }
  return keys;
}

/**
 * Over text `JSON.parse` accepted (as `value`): true when no object repeats a key and nothing nests
 * as deep as `maxDepth` (the full parser then has nothing to report). `JSON.parse` keeps the last of
 * repeated keys, so the text has more keys than the value exactly when one repeats: counting them
 * needs neither a set of keys per object nor a look at each character.
 *
 * @example
 * isPlainJsonText('{"a":1,"a":2}', JSON.parse('{"a":1,"a":2}'), 256); // false: two keys in the text, one in the value
 */
export function isPlainJsonText(source: string, value: unknown, maxDepth: number): boolean {
  // A host that added an enumerable property to Object.prototype would skew every `for…in` count.
  if (Object.keys(Object.prototype).length > 0) return false;
  const keys = countKeys(value, 0, maxDepth);
  return keys >= 0 && keys === countKeysInText(source);
}
