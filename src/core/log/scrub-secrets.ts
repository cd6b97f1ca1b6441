/**
 * Hides known secret strings (a tool's env values) inside any text, and the pieces of a secret that
 * cutting text leaves behind: stderr and stdout are kept as tails and long lines as "first 297
 * characters...", so a cut can fall inside a secret, and the cut text then sits inside a message.
 */

export const REDACTED = "[REDACTED]";

/** Secret strings shorter than this are not searched for inside other text (too many false hits). */
export const MIN_SECRET_LENGTH = 3;
/**
 * The shortest piece of a cut secret that is hidden. Fewer characters say little (masks often show
 * 4), and short pieces would hit ordinary words: a secret ending in "2024" must not hide every year.
 */
export const MIN_SECRET_PIECE_LENGTH = 6;

/** What may come right before the end of a secret where a tail was cut: nothing, a space, a quote, a bracket... */
const OPENING = /[\s"'`([{:=,]/;
/** What may follow the start of a secret where text was cut: an ellipsis and closing quotes, then a space or nothing. */
const CLOSING = /^(?:\.\.\.|…)?["'`)\]}]{0,3}/;

type Range = [start: number, end: number];

/** Every occurrence of `anchor` in `text`. */
function* occurrences(text: string, anchor: string) {
  for (let index = text.indexOf(anchor); index !== -1; index = text.indexOf(anchor, index + 1)) yield index;
}

/**
 * Where `text` holds a cut piece of `secret`: its end starting a word (a tail cut before it), or its
 * start ending a word (a text cut after it). Pieces are anchored on the secret's first or last
 * characters and stretched as far as they match, so a long text costs one scan per secret.
 */
function pieceRanges(text: string, secret: string): Range[] {
  const ranges: Range[] = [];
  for (const index of occurrences(text, secret.slice(-MIN_SECRET_PIECE_LENGTH))) {
    let start = index;
    let matched = MIN_SECRET_PIECE_LENGTH;
    while (start > 0 && matched < secret.length && text[start - 1] === secret[secret.length - matched - 1]) {
      start--;
      matched++;
    }
    if (start === 0 || OPENING.test(text[start - 1]!)) ranges.push([start, index + MIN_SECRET_PIECE_LENGTH]);
  }
  for (const index of occurrences(text, secret.slice(0, MIN_SECRET_PIECE_LENGTH))) {
    let end = index + MIN_SECRET_PIECE_LENGTH;
    while (end < text.length && end - index < secret.length && text[end] === secret[end - index]) end++;
    const after = end + (CLOSING.exec(text.slice(end, end + 8))?.[0].length ?? 0);
    if (after === text.length || /[\s,;:]/.test(text[after]!)) ranges.push([index, end]);
  }
  // A text that is nothing but a piece was not cut from anything longer: a short field such as a
  // tool name must not vanish because it happens to start or end some secret.
  return ranges.filter(([start, end]) => end - start < text.length);
}

/** `text` with the ranges (possibly overlapping) replaced by `[REDACTED]`. */
function replaceRanges(text: string, ranges: Range[]): string {
  if (ranges.length === 0) return text;
  ranges.sort((a, b) => a[0] - b[0]);
  let result = "";
  let position = 0;
  for (const [start, end] of ranges) {
    if (end <= position) continue;
    result += start >= position ? text.slice(position, start) + REDACTED : "";
    position = end;
  }
  return result + text.slice(position);
}

/** What the scrubber looks for: each secret long enough, and its JSON-escaped form, longest first. */
function needlesOf(secrets: readonly string[]): string[] {
  const long = secrets.filter((secret) => secret.length >= MIN_SECRET_LENGTH);
  // A secret with a quote, backslash or newline also appears JSON-escaped, e.g. in stdout quoted inside an error message.
  const escaped = long.map((secret) => JSON.stringify(secret).slice(1, -1));
  return [...new Set([...long, ...escaped])].sort((a, b) => b.length - a.length);
}

/**
 * Strings whose absence from a JSON text proves that the scrubber for `secrets` changes no string
 * and no key in it: each short needle whole, and the first and last `MIN_SECRET_PIECE_LENGTH`
 * characters of each longer one (every piece it hides contains one of them), JSON-escaped as the
 * text holds them. Undefined when no such proof holds: a needle with a surrogate may be escaped
 * differently alone than inside the text.
 *
 * @example
 * secretProbes(["tok-9f8e7d6c5b4a"]); // ["tok-9f", "6c5b4a"]
 */
export function secretProbes(secrets: readonly string[]): string[] | undefined {
  const needles = needlesOf(secrets);
  if (needles.some((needle) => /[\uD800-\uDFFF]/.test(needle))) return undefined;
  const probes = needles.flatMap((needle) => (needle.length > MIN_SECRET_PIECE_LENGTH ? [needle.slice(0, MIN_SECRET_PIECE_LENGTH), needle.slice(-MIN_SECRET_PIECE_LENGTH)] : [needle]));
  return [...new Set(probes.map((probe) => JSON.stringify(probe).slice(1, -1)))];
}

/**
 * A function that replaces every secret in a text with `[REDACTED]`, and each cut piece of a secret
 * of at least `MIN_SECRET_PIECE_LENGTH` characters too.
 *
 * @example
 * const scrub = createSecretScrubber(["tok-9f8e7d6c5b4a"]);
 * scrub("key tok-9f8e7d6c5b4a"); // "key [REDACTED]"
 * scrub("stderr tail: 7d6c5b4a\nexit 1"); // "stderr tail: [REDACTED]\nexit 1"
 */
export function createSecretScrubber(secrets: readonly string[]): (text: string) => string {
  const needles = needlesOf(secrets);
  if (needles.length === 0) return (text) => text;
  const cuttable = needles.filter((needle) => needle.length > MIN_SECRET_PIECE_LENGTH);
  return (text) => {
    let result = text;
    for (const needle of needles) if (result.includes(needle)) result = result.split(needle).join(REDACTED);
    for (const needle of cuttable) result = replaceRanges(result, pieceRanges(result, needle));
    return result;
  };
}
