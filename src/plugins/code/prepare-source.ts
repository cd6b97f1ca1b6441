/**
 * The parser pre-pass over submitted code, run on the host before any runtime is involved:
 * syntax errors with the line and column of the code as written, clear refusals of module syntax,
 * and a rewrite that SES's conservative source checks accept without changing what the code means.
 *
 * SES rejects any source containing `import(`, `<!--`, `-->` or `eval(`, even inside strings and
 * comments. So comments are blanked, matching characters in literals are escaped (`\x69mport(`),
 * direct `eval(...)` becomes `(0, eval)(...)` (a compartment's eval is indirect anyway), and
 * `a-->b` gets a space. Then the code is wrapped in an async function so top-level `await` and
 * `return` work, and its last expression statement is returned.
 */
import type { Comment, Node } from "acorn";
import { loadAcorn } from "./load-acorn.js";
import { escapeInLiteral, findForbiddenText, htmlCommentFixes, keywordCalls } from "./source-escapes.js";
import { applyEdits, type ColumnEdit, type SourceEdit } from "./source-edits.js";

/** The name stack frames of submitted code carry. */
export const CODE_SOURCE_URL = "code.js";
const WRAPPER_START = "(async () => {";
const WRAPPER_END = `\n})()\n//# sourceURL=${CODE_SOURCE_URL}\n`;

export interface PreparedSource {
  /** What the runtime evaluates; it completes with a promise of the code's result. */
  source: string;
  /** Edits that moved columns, for mapping stack frames back (see source-edits.ts). */
  columnEdits: ColumnEdit[];
}

export type PrepareResult = { ok: true; prepared: PreparedSource } | { ok: false; message: string; line: number; column: number };

type AnyNode = Node & Record<string, unknown>;

function walk(node: AnyNode, visit: (node: AnyNode) => void): void {
  visit(node);
  for (const key of Object.keys(node)) {
    if (key === "loc") continue;
    const child = node[key];
    if (Array.isArray(child)) {
      for (const item of child) if (item && typeof (item as AnyNode).type === "string") walk(item as AnyNode, visit);
    } else if (child && typeof (child as AnyNode).type === "string") {
      walk(child as AnyNode, visit);
    }
  }
}

const MODULES_HINT = "the sandbox has no modules; call tools with call_tool(...) or tools.<server>.<tool>(...)";

function refusal(node: AnyNode): string | undefined {
  switch (node.type) {
    case "ImportDeclaration":
      return `import declarations are not available: ${MODULES_HINT}`;
    case "ExportNamedDeclaration":
    case "ExportDefaultDeclaration":
    case "ExportAllDeclaration":
      return "export is not available: return the result instead (the last expression's value, or a top-level return)";
    case "ImportExpression":
      return `import() is not available: ${MODULES_HINT}`;
    case "MetaProperty":
      return (node.meta as { name: string }).name === "import" ? "import.meta is not available in the sandbox" : undefined;
    default:
      return undefined;
  }
}

/** Acorn's messages end with "(line:column)"; ours say it in words, 1-based. */
function syntaxFailure(error: unknown): PrepareResult {
  const { message, loc } = error as { message: string; loc?: { line: number; column: number } };
  const line = loc?.line ?? 1;
  const column = (loc?.column ?? 0) + 1;
  return { ok: false, message: `${message.replace(/\s*\(\d+:\d+\)$/, "")} at line ${line}, column ${column}`, line, column };
}

/**
 * Check and rewrite `code` for the runtime.
 *
 * @example
 * const result = prepareSource("const r = await tools.local.echo({ a: 1 });\nr.a + 1");
 * if (!result.ok) console.log(result.message); // e.g. "Unexpected token at line 2, column 5"
 */
export function prepareSource(code: string): PrepareResult {
  const comments: Comment[] = [];
  let program: AnyNode;
  try {
    program = loadAcorn().parse(code, {
      ecmaVersion: "latest",
      // Module goal: strict mode like the sandbox, and no HTML-like comments.
      sourceType: "module",
      allowReturnOutsideFunction: true,
      allowAwaitOutsideFunction: true,
      allowHashBang: true,
      onComment: comments,
    }) as unknown as AnyNode;
  } catch (error) {
    return syntaxFailure(error);
  }

  const edits: SourceEdit[] = [];
  const literals: Array<[start: number, end: number]> = [];
  let refused: { message: string; node: AnyNode } | undefined;
  try {
    walk(program, (node) => {
      const message = refusal(node);
      if (message !== undefined && refused === undefined) refused = { message, node };
      if ((node.type === "Literal" && (typeof node.value === "string" || "regex" in node)) || node.type === "TemplateElement") {
        literals.push([node.start, node.end]);
        edits.push(...escapeInLiteral(code, node.start, node.end));
      }
      edits.push(...keywordCalls(code, node));
    });
  } catch {
    return { ok: false, message: "The code is nested too deeply to run", line: 1, column: 1 };
  }
  if (refused) {
    const { line, column } = loadAcorn().getLineInfo(code, refused.node.start);
    return { ok: false, message: `${refused.message} (line ${line}, column ${column + 1})`, line, column: column + 1 };
  }

  // Blank comments to spaces (line breaks kept), so columns and lines stay put.
  for (const comment of comments) {
    const text = code.slice(comment.start, comment.end).replace(/[^\n\r\u2028\u2029]/g, " ");
    edits.push({ start: comment.start, end: comment.end, text });
  }
  const protectedRanges = [...literals, ...comments.map((comment): [number, number] => [comment.start, comment.end])];
  edits.push(...htmlCommentFixes(code, protectedRanges));

  const body = program.body as AnyNode[];
  const last = body[body.length - 1];
  if (last?.type === "ExpressionStatement") edits.push({ start: last.start, end: last.start, text: "return ", order: -1 });
  edits.push({ start: 0, end: 0, text: WRAPPER_START, order: -2 });

  const { text, columnEdits } = applyEdits(code, edits);
  const leftover = findForbiddenText(text);
  if (leftover !== undefined) {
    const { line, column } = loadAcorn().getLineInfo(text, leftover.index);
    return { ok: false, message: `The sandbox cannot run code containing "${leftover.text}" here (line ${line}); write it another way`, line, column: column + 1 };
  }
  return { ok: true, prepared: { source: `${text}${WRAPPER_END}`, columnEdits } };
}

/** Lines of `code` as the runtime's stack frames count them, without splitting it into strings. */
export function countLines(code: string): number {
  let lines = 1;
  for (let index = 0; index < code.length; index++) {
    const char = code.charCodeAt(index);
    if (char === 0x0a || char === 0x2028 || char === 0x2029) lines++;
    else if (char === 0x0d) {
      lines++;
      if (code.charCodeAt(index + 1) === 0x0a) index++;
    }
  }
  return lines;
}
