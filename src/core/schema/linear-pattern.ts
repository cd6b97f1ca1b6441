/**
 * JSON Schema `pattern`s run on a linear-time engine (re2js, a pure-JS RE2), never on V8's
 * backtracking one: schemas come from tools.json, MCP servers and saved tools, and a pattern such as
 * `^(a+)+$` blocked the host's event loop for 10 s on 29 characters. A pattern is first checked as
 * the ECMAScript regular expression JSON Schema says it is, then rewritten into RE2 syntax with the
 * same meaning. What RE2 cannot do in linear time (lookaround, backreferences) is reported, not run.
 */
import { createRequire } from "node:module";

// Loaded on the first pattern compiled, not at import: 260 KB that hosts without patterns never need.
const require = createRequire(import.meta.url);
let engine: typeof import("re2js").RE2JS | undefined;
const re2 = () => (engine ??= (require("re2js") as typeof import("re2js")).RE2JS);

/** A pattern ready to test strings in linear time, or why the linear engine cannot run it. */
export type LinearPattern = { ok: true; test(text: string): boolean } | { ok: false; reason: string };

/** ECMAScript's `\s` (Unicode white space and line terminators); RE2's `\s` is ASCII only. */
const SPACE = "\\x{9}-\\x{D}\\x{20}\\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}\\x{FEFF}";
/** The complement of SPACE over every code point, for `\S` inside a class. */
const NOT_SPACE = "\\x{0}-\\x{8}\\x{E}-\\x{1F}\\x{21}-\\x{9F}\\x{A1}-\\x{167F}\\x{1681}-\\x{1FFF}\\x{200B}-\\x{2027}\\x{202A}-\\x{202E}\\x{2030}-\\x{205E}\\x{2060}-\\x{2FFF}\\x{3001}-\\x{FEFE}\\x{FF00}-\\x{10FFFF}";
/** ECMAScript's `.` without the s flag: anything but a line terminator (RE2's excludes only `\n`). */
const ANY_BUT_LINE_END = "[^\\x{A}\\x{D}\\x{2028}\\x{2029}]";
const EVERYTHING = "\\x{0}-\\x{10FFFF}";

/** ECMAScript's long General_Category names, as RE2 knows them (short names only). */
const CATEGORY_SHORT_NAMES: Record<string, string> = {
  Letter: "L", Cased_Letter: "LC", Uppercase_Letter: "Lu", Lowercase_Letter: "Ll", Titlecase_Letter: "Lt", Modifier_Letter: "Lm", Other_Letter: "Lo",
  Mark: "M", Combining_Mark: "M", Nonspacing_Mark: "Mn", Spacing_Mark: "Mc", Enclosing_Mark: "Me",
  Number: "N", Decimal_Number: "Nd", digit: "Nd", Letter_Number: "Nl", Other_Number: "No",
  Punctuation: "P", punct: "P", Connector_Punctuation: "Pc", Dash_Punctuation: "Pd", Open_Punctuation: "Ps", Close_Punctuation: "Pe",
  Initial_Punctuation: "Pi", Final_Punctuation: "Pf", Other_Punctuation: "Po",
  Symbol: "S", Math_Symbol: "Sm", Currency_Symbol: "Sc", Modifier_Symbol: "Sk", Other_Symbol: "So",
  Separator: "Z", Space_Separator: "Zs", Line_Separator: "Zl", Paragraph_Separator: "Zp",
  Other: "C", Control: "Cc", cntrl: "Cc", Format: "Cf", Surrogate: "Cs", Private_Use: "Co", Unassigned: "Cn",
};

class Unsupported extends Error {}

/** RE2's largest repetition count. */
const MAX_REPEAT = 1000;

const codePoint = (value: number) => `\\x{${value.toString(16).toUpperCase()}}`;

/** `\p{…}` in RE2 terms: general categories and scripts map; other properties are refused. */
function unicodeProperty(body: string, negated: boolean, inClass: boolean): string {
  const [name, value] = body.includes("=") ? (body.split("=") as [string, string]) : [undefined, body];
  let mapped: string | undefined;
  if (name === undefined || name === "gc" || name === "General_Category") mapped = /^[A-Z][a-z]?$/.test(value) ? value : Object.hasOwn(CATEGORY_SHORT_NAMES, value) ? CATEGORY_SHORT_NAMES[value] : undefined;
  else if (name === "sc" || name === "Script") mapped = value;
  if (name === undefined && value === "Any") mapped = "Any";
  if (name === undefined && value === "ASCII") {
    const range = "\\x{0}-\\x{7F}";
    return inClass ? (negated ? "\\x{80}-\\x{10FFFF}" : range) : `[${negated ? "^" : ""}${range}]`;
  }
  if (mapped === undefined) throw new Unsupported(`the Unicode property \\p{${body}} is not supported`);
  return `\\${negated ? "P" : "p"}{${mapped}}`;
}

/** Where `toRe2Syntax` stands in the pattern it rewrites. */
interface Cursor {
  readonly source: string;
  index: number;
  inClass: boolean;
}

/**
 * The RE2 form of a valid ECMAScript pattern (u flag), with the same meaning. Throws `Unsupported`
 * for lookaround and backreferences. Literal punctuation and non-ASCII characters are written as
 * `\x{…}`, so no character means something to RE2 that it did not mean to ECMAScript.
 */
export function toRe2Syntax(source: string): string {
  const cursor: Cursor = { source, index: 0, inClass: false };
  let out = "";
  while (cursor.index < source.length) {
    if (source[cursor.index] === "\\") out += rewriteEscape(cursor);
    else if (cursor.inClass) out += rewriteClassCharacter(cursor);
    else out += rewriteCharacter(cursor);
  }
  return out;
}

const hexAt = (source: string, from: number, length: number) => Number.parseInt(source.slice(from, from + length), 16);

/** `\u{…}` or `\uXXXX` (a pair of them for a surrogate pair), the cursor just past the `u`. */
function readUnicodeEscape(cursor: Cursor): number {
  const { source } = cursor;
  if (source[cursor.index] === "{") {
    const end = source.indexOf("}", cursor.index);
    const value = hexAt(source, cursor.index + 1, end - cursor.index - 1);
    cursor.index = end + 1;
    return value;
  }
  let value = hexAt(source, cursor.index, 4);
  cursor.index += 4;
  // With the u flag an escaped surrogate pair is one code point.
  if (value >= 0xd800 && value <= 0xdbff && source.startsWith("\\u", cursor.index) && /^[dD][c-fC-F]/.test(source.slice(cursor.index + 2, cursor.index + 4))) {
    value = 0x10000 + ((value - 0xd800) << 10) + (hexAt(source, cursor.index + 2, 4) - 0xdc00);
    cursor.index += 6;
  }
  return value;
}

/** A backslash escape, the cursor on the backslash. */
function rewriteEscape(cursor: Cursor): string {
  const { source, inClass } = cursor;
  const next = source[cursor.index + 1]!;
  cursor.index += 2;
  if (next === "u") return codePoint(readUnicodeEscape(cursor));
  if (next === "x") {
    cursor.index += 2;
    return codePoint(hexAt(source, cursor.index - 2, 2));
  }
  if (next === "c") {
    cursor.index += 1;
    return codePoint(source.charCodeAt(cursor.index - 1) % 32);
  }
  if (next === "0") return codePoint(0);
  if (/[1-9]/.test(next) || next === "k") throw new Unsupported("backreferences are not supported");
  if (next === "s" || next === "S") {
    const ranges = next === "s" ? SPACE : NOT_SPACE;
    return inClass ? ranges : `[${ranges}]`;
  }
  if (next === "b" && inClass) return codePoint(8);
  if (next === "p" || next === "P") {
    const end = source.indexOf("}", cursor.index);
    const property = unicodeProperty(source.slice(cursor.index + 1, end), next === "P", inClass);
    cursor.index = end + 1;
    return property;
  }
  if (/[dDwWbBtnvfr]/.test(next)) return `\\${next}`;
  // An escaped syntax character (`\.`, `\/`, `\-`...): the character itself.
  return codePoint(next.codePointAt(0)!);
}

/** One character inside a class (`[…]`), the closing bracket included. */
function rewriteClassCharacter(cursor: Cursor): string {
  const char = cursor.source[cursor.index]!;
  const value = cursor.source.codePointAt(cursor.index)!;
  cursor.index += value > 0xffff ? 2 : 1;
  if (char === "]") cursor.inClass = false;
  return char === "]" || char === "-" || /[A-Za-z0-9_]/.test(char) ? char : codePoint(value);
}

/** One character (or a group opening, a class opening, a quantifier) outside a class. */
function rewriteCharacter(cursor: Cursor): string {
  const { source, index } = cursor;
  const char = source[index]!;
  if (char === "[") return openClass(cursor);
  if (char === "(") return openGroup(cursor);
  if (char === "{") {
    // With the u flag a "{" outside a class always starts a quantifier: {n}, {n,} or {n,m}.
    const end = source.indexOf("}", index);
    const counts = source.slice(index + 1, end).split(",").filter((count) => count !== "").map(Number);
    if (counts.some((count) => count > MAX_REPEAT)) throw new Unsupported(`a repetition count above ${MAX_REPEAT} is not supported`);
    cursor.index = end + 1;
    return source.slice(index, end + 1);
  }
  const value = source.codePointAt(index)!;
  cursor.index += value > 0xffff ? 2 : 1;
  if (char === ".") return ANY_BUT_LINE_END;
  return "^$|)*+?".includes(char) || /[A-Za-z0-9_]/.test(char) ? char : codePoint(value);
}

function openClass(cursor: Cursor): string {
  const negated = cursor.source[cursor.index + 1] === "^";
  const opening = negated ? 2 : 1;
  if (cursor.source[cursor.index + opening] === "]") {
    // `[]` matches nothing and `[^]` anything; RE2 has neither spelling.
    cursor.index += opening + 1;
    return negated ? `[${EVERYTHING}]` : `[^${EVERYTHING}]`;
  }
  cursor.inClass = true;
  cursor.index += opening;
  return negated ? "[^" : "[";
}

function openGroup(cursor: Cursor): string {
  const { source, index } = cursor;
  if (source.startsWith("(?=", index) || source.startsWith("(?!", index)) throw new Unsupported("lookahead (?= or (?! is not supported");
  if (source.startsWith("(?<=", index) || source.startsWith("(?<!", index)) throw new Unsupported("lookbehind (?<= or (?<! is not supported");
  // Validation never reads groups: every group, named or not, becomes non-capturing.
  if (source.startsWith("(?<", index)) cursor.index = source.indexOf(">", index) + 1;
  else if (source.startsWith("(?:", index)) cursor.index += 3;
  else cursor.index += 1;
  return "(?:";
}

/**
 * Why the linear engine cannot run `source` (lookaround, backreferences, a count above 1000), or
 * undefined. Syntax only, without compiling: cheap enough for every schema at load (compiling costs
 * about 0.25 ms a pattern). A pattern that passes can still be too large once compiled; validation
 * then leaves it unchecked. Throws a SyntaxError if `source` is not an ECMAScript pattern at all.
 */
export function findLinearPatternProblem(source: string): string | undefined {
  if (problems.has(source)) return problems.get(source);
  new RegExp(source, "u");
  let problem: string | undefined;
  try {
    toRe2Syntax(source);
  } catch (error) {
    if (!(error instanceof Unsupported)) throw error;
    problem = error.message;
  }
  problems.set(source, problem);
  return problem;
}

/** Registries repeat patterns across tools (and reloads check them again): each is read once. */
const problems = new Map<string, string | undefined>();

const cache = new Map<string, LinearPattern>();

/**
 * Compile an ECMAScript pattern (as JSON Schema's `pattern` and `patternProperties` mean it) for
 * the linear engine. Throws a SyntaxError if it is not a valid ECMAScript pattern at all.
 *
 * @example
 * const pattern = compileLinearPattern("^(a+)+$");
 * pattern.ok && pattern.test("a".repeat(28) + "!"); // false, in microseconds
 * compileLinearPattern("^(?=.*\\d)"); // { ok: false, reason: "lookahead (?= or (?! is not supported" }
 */
export function compileLinearPattern(source: string): LinearPattern {
  const known = cache.get(source);
  if (known) return known;
  // The source must be what JSON Schema calls a regular expression; V8 only parses here, never runs it.
  new RegExp(source, "u");
  let pattern: LinearPattern;
  try {
    const compiled = re2().compile(toRe2Syntax(source));
    pattern = { ok: true, test: (text) => compiled.test(text) };
  } catch (error) {
    const reason = error instanceof Unsupported ? error.message : `the linear-time engine cannot run it (${(error as Error).message})`;
    pattern = { ok: false, reason };
  }
  cache.set(source, pattern);
  return pattern;
}

/**
 * ajv's `code.regExp` engine: every `pattern` and `patternProperties` test runs on the linear
 * engine. A pattern it cannot run matches everything (the keyword is left unchecked); loaders
 * refuse or warn about those with `findUncheckedPatterns` before a schema gets here.
 */
export function linearRegExp(source: string, flags: string) {
  const pattern = compileLinearPattern(source);
  return {
    test: (text: string) => (pattern.ok ? pattern.test(text) : true),
    // ajv keys compiled patterns by this text: it must differ per source.
    toString: () => `/${source}/${flags}`,
  };
}
linearRegExp.code = "linearRegExp";
