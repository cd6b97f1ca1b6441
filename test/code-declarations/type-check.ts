/** Type-checks in-memory TypeScript files under `strict` with the compiler API, as a model's code would be. */
import ts from "typescript";

const options: ts.CompilerOptions = {
  strict: true,
  noUncheckedIndexedAccess: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  lib: ["lib.es2023.d.ts"],
  types: [],
  // Checked as scripts: the declarations are globals, as they are inside the sandbox.
  moduleDetection: ts.ModuleDetectionKind.Legacy,
};

/** Parsed lib files, shared by every program of the run: parsing them is most of a check's cost. */
const libraryFiles = new Map<string, ts.SourceFile | undefined>();

/**
 * The diagnostics of the given files as `file:line:column message` lines; empty means it compiles.
 * Name the files `*.ts`, not `*.d.ts`, so that the declarations themselves are checked too.
 */
export function typeCheck(files: Record<string, string>): string[] {
  const host = ts.createCompilerHost(options, true);
  const readLibrary = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion) => {
    const text = files[fileName];
    if (text !== undefined) return ts.createSourceFile(fileName, text, languageVersion, true);
    if (!libraryFiles.has(fileName)) libraryFiles.set(fileName, readLibrary(fileName, languageVersion));
    return libraryFiles.get(fileName);
  };
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (fileName) => fileName in files || fileExists(fileName);
  const program = ts.createProgram(Object.keys(files), options, host);
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n");
    if (!diagnostic.file || diagnostic.start === undefined) return message;
    const { line, character } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
    return `${diagnostic.file.fileName}:${line + 1}:${character + 1} ${message}`;
  });
}

/** Model-style code wrapped the way the runtime runs it: top-level `await` and `return` inside an async function. */
export function asProgram(code: string): string {
  return `async function program() {\n${code}\n}\n`;
}
