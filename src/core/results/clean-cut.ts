/**
 * Where to cut a text so the piece stays readable: never between the two halves of a surrogate pair,
 * and, when one is close enough, at the end of a line or of a word rather than inside a token.
 */

/** How far back (as a share of the piece) a cut may move to reach a line end, then a space. */
const LINE_SHARE = 0.2;
const WORD_SHARE = 0.05;

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;

/**
 * The end index of a piece of `text` that starts at `start` and holds at most `limit` characters:
 * `text.length` when the rest fits. A cut between the halves of a surrogate pair moves back one.
 *
 * @example
 * cleanCutEnd(text, 0, 25_000); // after the last line end in the final 5,000 characters, else the last space in the final 1,250
 */
export function cleanCutEnd(text: string, start: number, limit: number): number {
  const hardEnd = start + limit;
  if (hardEnd >= text.length) return text.length;
  const lineFloor = hardEnd - Math.floor(limit * LINE_SHARE);
  const newline = text.lastIndexOf("\n", hardEnd - 1);
  if (newline >= lineFloor && newline >= start) return newline + 1;
  const wordFloor = hardEnd - Math.floor(limit * WORD_SHARE);
  for (let index = hardEnd - 1; index >= wordFloor && index > start; index--) {
    const code = text.charCodeAt(index);
    if (code === 32 || code === 9) return index + 1;
  }
  // A piece of one character that is half a pair still moves back to nothing: take the pair whole then.
  if (isHighSurrogate(text.charCodeAt(hardEnd - 1))) return hardEnd - 1 > start ? hardEnd - 1 : hardEnd + 1;
  return hardEnd;
}
