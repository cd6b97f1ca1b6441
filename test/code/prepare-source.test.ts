/**
 * The host-side pre-pass: syntax errors located in the code as written, module syntax refused
 * with a hint, and rewrites that SES's source checks accept. Pure; the runtime-level effect of
 * the same rewrites is checked in code-results.test.ts.
 */
import { describe, expect, it } from "vitest";
import { prepareSource } from "../../src/plugins/code/prepare-source.js";
import { findForbiddenText } from "../../src/plugins/code/source-escapes.js";

function prepared(code: string): string {
  const result = prepareSource(code);
  if (!result.ok) throw new Error(`expected ${JSON.stringify(code)} to prepare, got: ${result.message}`);
  return result.prepared.source;
}

function failure(code: string) {
  const result = prepareSource(code);
  if (result.ok) throw new Error(`expected ${JSON.stringify(code)} to fail`);
  return result;
}

describe("syntax errors", () => {
  it("names line and column (1-based) of the code as written", () => {
    expect(failure("const a = 1;\nconst b = ;")).toMatchObject({ line: 2, column: 11 });
    expect(failure("const a = 1;\nconst b = ;").message).toMatchInlineSnapshot(`"Unexpected token at line 2, column 11"`);
  });

  it("applies strict mode, as the sandbox does", () => {
    expect(failure("with (a) {}").message).toMatchInlineSnapshot(`"'with' in strict mode at line 1, column 1"`);
    expect(failure("let x = 010").message).toMatch(/line 1/);
  });

  it("refuses module syntax with a hint instead of SES's 'possible import expression rejected'", () => {
    expect(failure('import fs from "node:fs"').message).toMatchInlineSnapshot(
      `"import declarations are not available: the sandbox has no modules; call tools with call_tool(...) or tools.<server>.<tool>(...) (line 1, column 1)"`,
    );
    expect(failure('const fs = await import("node:fs")').message).toMatch(/^import\(\) is not available.*\(line 1, column 18\)$/);
    expect(failure("export const x = 1").message).toMatch(/^export is not available/);
    expect(failure("import.meta.url").message).toMatch(/^import\.meta is not available/);
  });
});

describe("rewrites SES would otherwise reject", () => {
  it("escapes import(, eval(, <!-- and --> inside strings, templates and regular expressions", () => {
    const source = prepared('const s = "import(x) eval(y) <!-- -->"; const t = `import(${1})`; const r = /eval(x)/; [s, t, r]');
    expect(findForbiddenText(source)).toBeUndefined();
    expect(source).toContain('"\\x69mport(x) \\x65val(y) \\x3c!-- --\\x3e"');
  });

  it("replaces an escaped trigger character together with its backslash", () => {
    expect(prepared("'\\import('")).toContain("'\\x69mport('");
  });

  it("blanks comments, keeping lines and columns", () => {
    const source = prepared("// import('x')\n/* eval( */ 1");
    expect(findForbiddenText(source)).toBeUndefined();
    expect(source.split("\n")[1]).toBe("            return 1");
  });

  it("makes a direct eval an indirect one, and quotes methods named eval or import", () => {
    expect(prepared("eval('1')")).toContain("return (0, eval)('1')");
    expect(prepared("({ eval() {}, import() {} })")).toContain('({ "eval"() {}, "import"() {} })');
  });

  it("splits --> and <!-- written as operators", () => {
    expect(prepared("let a = 2; a-->0")).toContain("a-- >0");
    expect(prepared("let a = 2; a<!--a")).toContain("a< !--a");
  });
});

describe("the wrapper", () => {
  it("returns the last expression statement and keeps top-level await and return", () => {
    expect(prepared("const a = 1;\na + 1")).toBe("(async () => {const a = 1;\nreturn a + 1\n})()\n//# sourceURL=code.js\n");
    expect(prepared("await 1")).toContain("return await 1");
    expect(prepared("return 5")).toContain("{return 5\n");
    expect(prepared("const a = 1;")).not.toContain("return");
  });

  it("records the column moves so stack frames can be mapped back", () => {
    const result = prepareSource('const s = "import("; s');
    expect(result.ok && result.prepared.columnEdits).toEqual([
      [1, 0, 0, 14],
      [1, 11, 1, 4],
      [1, 21, 0, 7],
    ]);
  });
});
