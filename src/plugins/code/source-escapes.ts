/**
 * The rewrites that keep SES's source checks from rejecting valid code: they find text SES would
 * take for `import(`, `eval(` or an HTML-like comment and change how it is written, never what it
 * means. SES's own patterns are repeated here (ses/src/transforms.js) to check the final text.
 */
import type { Node } from "acorn";
import type { SourceEdit } from "./source-edits.js";

const SES_PATTERNS: ReadonlyArray<[RegExp, string]> = [
  [/(?:<!--|-->)/g, "HTML-like comment"],
  [/(^|[^.]|\.\.\.)\bimport(\s*(?:\(|\/[/*]))/g, "import("],
  [/(^|[^.])\beval(\s*\()/g, "eval("],
];

/** In literal text: the character to escape in each place SES would object to. */
const LITERAL_TRIGGERS: ReadonlyArray<[RegExp, number]> = [
  [/\bimport(?=\s*(?:\(|\/[/*]))/g, 0],
  [/\beval(?=\s*\()/g, 0],
  [/<!--/g, 0],
  [/-->/g, 2],
];

const hexEscape = (character: string) => `\\x${character.charCodeAt(0).toString(16).padStart(2, "0")}`;

/**
 * Edits that escape the trigger characters inside one string, template or regular-expression
 * literal (`code.slice(start, end)`). `\x69` means "i" in all three; an already escaped character
 * (`\i`) is replaced together with its backslash.
 */
export function escapeInLiteral(code: string, start: number, end: number): SourceEdit[] {
  const raw = code.slice(start, end);
  const positions = new Set<number>();
  for (const [pattern, offset] of LITERAL_TRIGGERS) {
    for (const match of raw.matchAll(pattern)) positions.add(match.index + offset);
  }
  const edits: SourceEdit[] = [];
  for (const position of [...positions].sort((left, right) => left - right)) {
    let backslashes = 0;
    while (position - backslashes - 1 >= 0 && raw[position - backslashes - 1] === "\\") backslashes++;
    const escaped = backslashes % 2 === 1;
    edits.push({ start: start + position - (escaped ? 1 : 0), end: start + position + 1, text: hexEscape(raw[position]!) });
  }
  return edits;
}

type AnyNode = Node & Record<string, unknown>;
const isIdentifier = (node: unknown, name: string) =>
  (node as AnyNode | undefined)?.type === "Identifier" && (node as { name?: string }).name === name;

/**
 * Edits for code (not literals): a call of `eval` becomes `(0, eval)(...)`, and a method named
 * `eval` or `import` gets a quoted name (`"eval"() {}`), which is the same method.
 */
export function keywordCalls(code: string, node: AnyNode): SourceEdit[] {
  if ((node.type === "CallExpression" || node.type === "NewExpression") && isIdentifier(node.callee, "eval")) {
    const callee = node.callee as AnyNode;
    return [
      { start: callee.start, end: callee.start, text: "(0, " },
      { start: callee.end, end: callee.end, text: ")" },
    ];
  }
  const isMethod = (node.type === "Property" && (node.method === true || node.kind === "get" || node.kind === "set")) || node.type === "MethodDefinition";
  if (isMethod && node.computed !== true && (isIdentifier(node.key, "eval") || isIdentifier(node.key, "import"))) {
    const key = node.key as AnyNode;
    return [{ start: key.start, end: key.end, text: JSON.stringify(code.slice(key.start, key.end)) }];
  }
  return [];
}

/** Spaces that split `<!--` and `-->` written as operators (`a-->b` is `a-- > b`), outside the given ranges. */
export function htmlCommentFixes(code: string, protectedRanges: ReadonlyArray<[number, number]>): SourceEdit[] {
  const inside = (index: number) => protectedRanges.some(([start, end]) => index >= start && index < end);
  const edits: SourceEdit[] = [];
  for (const match of code.matchAll(/<!--|-->/g)) {
    if (inside(match.index)) continue;
    const split = match.index + (match[0] === "<!--" ? 1 : 2);
    edits.push({ start: split, end: split, text: " " });
  }
  return edits;
}

/** The first place the final text still matches one of SES's rejecting patterns, if any. */
export function findForbiddenText(text: string): { index: number; text: string } | undefined {
  let first: { index: number; text: string } | undefined;
  for (const [pattern, label] of SES_PATTERNS) {
    pattern.lastIndex = 0;
    const match = pattern.exec(text);
    if (match && (first === undefined || match.index < first.index)) first = { index: match.index, text: label };
  }
  return first;
}
