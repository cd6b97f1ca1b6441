/**
 * Small pieces of TypeScript source text that are safe whatever names and descriptions a tool
 * brings: property keys, property access, literals, doc comments and type names.
 */

/** A description longer than this is cut in a doc comment: a declaration documents, it does not archive. */
export const MAX_DOC_COMMENT_LENGTH = 2_000;

/** Doc comments up to this length stay on one line. */
const ONE_LINE_COMMENT_LENGTH = 100;

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * A plain ASCII JavaScript identifier (reserved words included: they are fine as property names).
 *
 * @example
 * isIdentifier("csv_summary"); // true
 * isIdentifier("csv-summary"); // false
 */
export function isIdentifier(name: string): boolean {
  return IDENTIFIER.test(name);
}

/**
 * The name as a property key in a type literal: bare when it is an identifier, else quoted.
 *
 * @example
 * propertyKey("path"); // "path"
 * propertyKey("csv-summary"); // "\"csv-summary\""
 */
export function propertyKey(name: string): string {
  return isIdentifier(name) ? name : JSON.stringify(name);
}

/**
 * Access to a property in code: `.name` for identifiers, `["name"]` otherwise.
 *
 * @example
 * `tools${propertyAccess("local")}${propertyAccess("csv-summary")}`; // tools.local["csv-summary"]
 */
export function propertyAccess(name: string): string {
  return isIdentifier(name) ? `.${name}` : `[${JSON.stringify(name)}]`;
}

/**
 * A JSON value as a TypeScript literal type, or undefined when TypeScript has no literal for it
 * (objects and arrays).
 *
 * @example
 * literalType('say "hi"'); // "\"say \\\"hi\\\"\""
 */
export function literalType(value: unknown): string | undefined {
  if (value === null) return "null";
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "boolean") return String(value);
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return undefined;
}

/**
 * A doc comment for the text, or "" when there is none. `*\/` cannot end the comment early, control
 * characters are dropped, and very long text is cut.
 *
 * @example
 * docComment("Rows to read."); // "/** Rows to read. *\/"
 */
export function docComment(text: string): string {
  const lines = cleanCommentText(text).split("\n");
  while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  if (lines.length === 0) return "";
  if (lines.length === 1 && lines[0]!.length <= ONE_LINE_COMMENT_LENGTH) return `/** ${lines[0]} */`;
  return ["/**", ...lines.map((line) => (line === "" ? " *" : ` * ${line}`)), " */"].join("\n");
}

function cleanCommentText(text: string): string {
  let cleaned = text
    .replace(/\r\n?/g, "\n")
    // A stray control character can confuse the model's tokenizer and serves no reader.
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, "")
    .replace(/\t/g, "  ")
    .split("\n")
    .map((line) => line.trimEnd())
    .join("\n")
    .trim();
  if (cleaned.length > MAX_DOC_COMMENT_LENGTH) cleaned = `${cleaned.slice(0, MAX_DOC_COMMENT_LENGTH - 1)}…`;
  return cleaned.replace(/\*\//g, "*\\/");
}

/**
 * Text safe inside a `/* ... *\/` comment on one line.
 *
 * @example
 * inlineComment("format: uri"); // "/* format: uri *\/"
 */
export function inlineComment(text: string): string {
  return `/* ${cleanCommentText(text).replace(/\s*\n\s*/g, " ")} */`;
}

/**
 * A PascalCase identifier made from any text, for named types; never empty, never starting with a digit.
 *
 * @example
 * typeNameFrom("tree-node"); // "TreeNode"
 * typeNameFrom("2d point"); // "T2dPoint"
 * typeNameFrom("--"); // "Type"
 */
export function typeNameFrom(text: string): string {
  const words = text.split(/[^A-Za-z0-9]+/).filter((word) => word !== "");
  const name = words.map((word) => word[0]!.toUpperCase() + word.slice(1)).join("");
  if (name === "") return "Type";
  return /^[0-9]/.test(name) ? `T${name}` : name;
}

/**
 * Indent every line after the first: for embedding multi-line type text at a deeper level.
 *
 * @example
 * `  value: ${indentFollowingLines("{\n  a: string;\n}", "  ")};`; // the closing brace lines up with `value`
 */
export function indentFollowingLines(text: string, indentation: string): string {
  return text.replace(/\n/g, `\n${indentation}`);
}
