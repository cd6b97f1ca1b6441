/**
 * Type text with its precedence, and the union, intersection and literal operations on it that keep
 * the text minimal (`unknown` absorbs a union, `never` an intersection) and correctly parenthesized.
 */
import { inlineComment, literalType } from "./typescript-text.js";

/** An enum with more values than this becomes its base type with a comment naming a few values. */
export const MAX_LITERAL_UNION_SIZE = 50;

/** How many values of a long enum the comment shows. */
const SHOWN_ENUM_VALUES = 5;

/** How tightly a type binds, to know when it needs parentheses. */
export const Precedence = { Union: 0, Intersection: 1, Atom: 2 } as const;
export type Precedence = (typeof Precedence)[keyof typeof Precedence];

/** Type text and how tightly it binds. */
export interface Rendered {
  text: string;
  precedence: Precedence;
  /** Only literal types: a base keyword beside them (`string & ("a" | "b")`) adds nothing. */
  literalsOnly?: boolean;
}

export const UNKNOWN: Rendered = { text: "unknown", precedence: Precedence.Atom };
export const NEVER: Rendered = { text: "never", precedence: Precedence.Atom };
/** Text that needs no parentheses anywhere: keywords, literals, names, object and array types. */
export const atom = (text: string): Rendered => ({ text, precedence: Precedence.Atom });

/**
 * The union of the values' literal types; a long enum becomes its base type with a comment.
 *
 * @example
 * literalUnion(["a", 2, null]).text; // "\"a\" | 2 | null"
 */
export function literalUnion(values: unknown[]): Rendered {
  if (values.length > MAX_LITERAL_UNION_SIZE) {
    const kinds = union([...new Set(values.map(valueKind))].map(atom));
    const shown = values.slice(0, SHOWN_ENUM_VALUES).map((value) => literalType(value) ?? "…");
    return { ...kinds, text: `${kinds.text} ${inlineComment(`one of ${values.length} values: ${shown.join(", ")}, …`)}` };
  }
  const literals = values.map((value) => {
    const literal = literalType(value);
    return literal === undefined ? UNKNOWN : { ...atom(literal), literalsOnly: true };
  });
  return union(literals);
}

function valueKind(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "unknown[]";
  const kind = typeof value;
  return kind === "string" || kind === "number" || kind === "boolean" ? kind : "unknown";
}

/**
 * `A | B`, deduplicated; `unknown` absorbs it and `never` members drop out.
 *
 * @example
 * union([atom("string"), atom("null"), atom("string")]).text; // "string | null"
 */
export function union(members: Rendered[]): Rendered {
  const parts = members.filter((member) => member.text !== "never");
  if (parts.length === 0) return NEVER;
  if (parts.some((member) => member.text === "unknown")) return UNKNOWN;
  const texts = [...new Set(parts.map((member) => member.text))];
  const literalsOnly = parts.every((member) => member.literalsOnly === true);
  if (texts.length === 1) return { ...parts[0]!, literalsOnly };
  return { text: texts.join(" | "), precedence: Precedence.Union, literalsOnly };
}

/**
 * `A & B`, with unions parenthesized; `unknown` members drop out and `never` absorbs it.
 *
 * @example
 * intersection([union([atom("a"), atom("b")]), atom("c")]).text; // "(a | b) & c"
 */
export function intersection(members: Rendered[]): Rendered {
  const parts = members.filter((member) => member.text !== "unknown");
  if (parts.some((member) => member.text === "never")) return NEVER;
  if (parts.length === 0) return UNKNOWN;
  const texts = [...new Set(parts.map((member) => parenthesize(member, Precedence.Intersection)))];
  if (texts.length === 1) return parts[0]!;
  return { text: texts.join(" & "), precedence: Precedence.Intersection };
}

/**
 * The text, in parentheses when it binds less tightly than the position needs.
 *
 * @example
 * `${parenthesize(union([atom("a"), atom("b")]), Precedence.Atom)}[]`; // "(a | b)[]"
 */
export function parenthesize(type: Rendered, needed: Precedence): string {
  return type.precedence < needed ? `(${type.text})` : type.text;
}

/**
 * A primitive keyword that a union of its literals makes redundant.
 *
 * @example
 * isKeyword(atom("string")); // true
 */
export function isKeyword(type: Rendered): boolean {
  return ["string", "number", "boolean"].includes(type.text);
}
