/**
 * The size rules of the style guide (docs/architecture.md): no source file over 300 lines, and no function in
 * the core over 60 lines. Functions are found with the TypeScript compiler's parser, so an arrow in an object
 * literal or a method in a class counts the same as a declaration.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const SOURCE = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "src");
const MAX_FILE_LINES = 300;
const MAX_CORE_FUNCTION_LINES = 60;

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(ts|mts|cts)$/.test(entry.name) ? [full] : [];
  });
}

/** Lines as an editor numbers them: a final newline does not open another line. */
export function countLines(text: string): number {
  if (text === "") return 0;
  return text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
}

type FunctionSize = { name: string; line: number; lines: number };

function isFunctionLike(node: ts.Node): node is ts.FunctionLikeDeclaration {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isArrowFunction(node) ||
    ts.isFunctionExpression(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node)
  );
}

/** The name a reader would look for: the function's own, else the variable or property it is assigned to. */
function nameOf(node: ts.FunctionLikeDeclaration, file: ts.SourceFile): string {
  if (ts.isConstructorDeclaration(node)) return "constructor";
  if (node.name) return node.name.getText(file);
  const parent = node.parent;
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) && parent.name) return parent.name.getText(file);
  return "(anonymous)";
}

/** Every function in a file (nested ones too) with its length in lines, from its first token to its last. */
export function functionSizes(fileName: string, text: string): FunctionSize[] {
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const sizes: FunctionSize[] = [];
  const visit = (node: ts.Node): void => {
    if (isFunctionLike(node) && node.body) {
      const start = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
      const end = file.getLineAndCharacterOfPosition(node.getEnd()).line;
      sizes.push({ name: nameOf(node, file), line: start + 1, lines: end - start + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return sizes;
}

const files = sourceFiles(SOURCE).map((full) => ({ file: path.relative(SOURCE, full).split(path.sep).join("/"), text: readFileSync(full, "utf8") }));

describe("size limits", () => {
  it(`no source file has more than ${MAX_FILE_LINES} lines`, () => {
    const offending = files
      .map(({ file, text }) => ({ file, lines: countLines(text) }))
      .filter(({ lines }) => lines > MAX_FILE_LINES)
      .map(({ file, lines }) => `${file}: ${lines} lines`);
    expect(offending).toEqual([]);
  });

  it(`no function in src/core has more than ${MAX_CORE_FUNCTION_LINES} lines`, () => {
    const offending = files
      .filter(({ file }) => file.startsWith("core/"))
      .flatMap(({ file, text }) => functionSizes(file, text).map((size) => ({ file, ...size })))
      .filter(({ lines }) => lines > MAX_CORE_FUNCTION_LINES)
      .map(({ file, name, line, lines }) => `${file}:${line} ${name}: ${lines} lines`);
    expect(offending).toEqual([]);
  });

  it("measures what it claims (the checks are not vacuous)", () => {
    expect(files.length).toBeGreaterThan(50);
    expect(countLines("a\nb\n")).toBe(2);
    expect(countLines("a\nb")).toBe(2);
    const body = Array.from({ length: 3 }, (_, index) => `  const v${index} = ${index};`).join("\n");
    const sample = [
      `function declared() {\n${body}\n}`,
      `const arrow = () => {\n${body}\n};`,
      `const expressed = function () {\n${body}\n};`,
      `class Holder {\n  method() {\n${body}\n  }\n}`,
      `const object = { property: () => {\n${body}\n} };`,
    ].join("\n");
    expect(functionSizes("sample.ts", sample).map(({ name, lines }) => `${name} ${lines}`)).toEqual([
      "declared 5",
      "arrow 5",
      "expressed 5",
      "method 5",
      "property 5",
    ]);
  });
});
