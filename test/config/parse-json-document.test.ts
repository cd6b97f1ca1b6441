/** The strict, location-aware JSON parser behind every config error's line and column. */
import { describe, expect, it } from "vitest";
import { formatJsonPath, MAX_NESTING_DEPTH, parseJsonDocument, type JsonDocument } from "../../src/core/json/parse-json-document.js";

function parse(text: string): JsonDocument {
  const result = parseJsonDocument(text);
  if (!result.ok) throw new Error(`expected valid JSON, got ${result.message} at ${result.location.line}:${result.location.column}`);
  return result.document;
}

/** The syntax error for `text` as `line:column message`. */
function syntaxError(text: string): string {
  const result = parseJsonDocument(text);
  if (result.ok) throw new Error("expected a syntax error");
  return `${result.location.line}:${result.location.column} ${result.message}`;
}

describe("parseJsonDocument values", () => {
  it("parses what JSON.parse parses", () => {
    const samples = [
      '{"a": [1, -2.5, 3e2, 0, -0, 1E-3], "b": {"c": null, "d": true, "e": false}, "f": ""}',
      "[]",
      "{}",
      '"text"',
      "0",
      "-0.0",
      "null",
      ' \t\r\n [ [ [ { } ] ] ] \n',
      '{"nested": {"deeper": {"deepest": [[], [{}], [[1]]]}}}',
      '"\\u00e9\\u4e2d\\ud83d\\ude00"',
      '"tab\\there \\"quoted\\" back\\\\slash \\/ \\b\\f\\n\\r"',
      "1.7976931348623157e308",
      "123456789012345678901234567890",
    ];
    for (const sample of samples) expect(parse(sample).value, sample).toEqual(JSON.parse(sample));
  });

  it("keeps a __proto__ key as data, not as the prototype", () => {
    const value = parse('{"__proto__": {"polluted": true}, "a": 1}').value as Record<string, unknown>;
    expect(Object.keys(value)).toEqual(["__proto__", "a"]);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(value, "__proto__")?.value).toEqual({ polluted: true });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("keeps keys named like Object.prototype members as plain data", () => {
    const value = parse('{"constructor": 1, "toString": 2, "hasOwnProperty": 3}').value;
    expect(value).toEqual({ constructor: 1, toString: 2, hasOwnProperty: 3 });
  });

  it("keeps non-ASCII text and keys as written", () => {
    expect(parse('{"café": "naïve ✓ 中文 😀"}').value).toEqual({ café: "naïve ✓ 中文 😀" });
  });

  it("skips a UTF-8 byte order mark", () => {
    expect(parse('\uFEFF{"a": 1}').value).toEqual({ a: 1 });
  });

  it("lets the last of two duplicate keys win, as JSON.parse does, and records the duplicate", () => {
    const document = parse('{\n  "a": 1,\n  "b": {"c": 1, "c": 2},\n  "a": 3\n}');
    expect(document.value).toEqual({ a: 3, b: { c: 2 } });
    expect(document.duplicateKeys).toEqual([
      { path: ["b", "c"], location: { line: 3, column: 17 } },
      { path: ["a"], location: { line: 4, column: 3 } },
    ]);
  });

  it("records a key repeated three times twice", () => {
    expect(parse('{"a": 1, "a": 2, "a": 3}').duplicateKeys.map((duplicate) => duplicate.location.column)).toEqual([10, 18]);
  });

  it("does not confuse equal keys in different objects", () => {
    expect(parse('{"a": {"x": 1}, "b": {"x": 1}, "c": [{"x": 1}, {"x": 2}]}').duplicateKeys).toEqual([]);
  });
});

describe("parseJsonDocument locations", () => {
  const text = ['{', '  "tools": [', '    {', '      "name": "echo",', '      "env": { "A": "1" }', '    }', '  ]', '}'].join("\n");

  it("locates values and keys by path", () => {
    const document = parse(text);
    expect(document.locate([])).toEqual({ line: 1, column: 1 });
    expect(document.locate(["tools"])).toEqual({ line: 2, column: 12 });
    expect(document.locate(["tools"], { key: true })).toEqual({ line: 2, column: 3 });
    expect(document.locate(["tools", 0])).toEqual({ line: 3, column: 5 });
    expect(document.locate(["tools", 0, "name"])).toEqual({ line: 4, column: 15 });
    expect(document.locate(["tools", 0, "name"], { key: true })).toEqual({ line: 4, column: 7 });
    expect(document.locate(["tools", 0, "env", "A"])).toEqual({ line: 5, column: 21 });
  });

  it("falls back to the nearest ancestor for a path that is absent", () => {
    const document = parse(text);
    expect(document.locate(["tools", 0, "runtime"])).toEqual({ line: 3, column: 5 });
    expect(document.locate(["tools", 0, "runtime"], { key: true })).toEqual({ line: 3, column: 5 });
    expect(document.locate(["tools", 7, "name"])).toEqual({ line: 2, column: 12 });
    expect(document.locate(["nothing", "here"])).toEqual({ line: 1, column: 1 });
  });

  it("counts a key containing the path separator apart from a nested path", () => {
    const document = parse('{"a": {"b": 1},\n "a\\u0000b": 2}');
    expect(document.locate(["a", "b"])).toEqual({ line: 1, column: 13 });
    expect(document.locate(["a\u0000b"])).toEqual({ line: 2, column: 14 });
  });

  it("counts columns in UTF-16 code units, after a BOM from the first character", () => {
    expect(parse('\uFEFF{"a": 1}').locate(["a"])).toEqual({ line: 1, column: 7 });
    expect(parse('{"é": 1, "b": 2}').locate(["b"])).toEqual({ line: 1, column: 15 });
  });

  it("treats CRLF as one line break", () => {
    expect(parse('{\r\n  "a": 1,\r\n  "b": 2\r\n}').locate(["b"])).toEqual({ line: 3, column: 8 });
  });

  it("locates the second of two duplicate keys", () => {
    const document = parse('{\n  "a": 1,\n  "a": 2\n}');
    expect(document.locate(["a"])).toEqual({ line: 3, column: 8 });
    expect(document.locate(["a"], { key: true })).toEqual({ line: 3, column: 3 });
  });
});

describe("parseJsonDocument syntax errors", () => {
  it.each([
    ["an empty text", ""],
    ["whitespace only", " \n\t "],
    ["a BOM only", "\uFEFF"],
    ["a trailing comma in an array", "[1,\n 2,\n]"],
    ["a trailing comma in an object", '{"a": 1, }'],
    ["a missing comma in an object", '{"a": 1 "b": 2}'],
    ["a missing comma in an array", "[1 2]"],
    ["a missing colon", '{"a" 1}'],
    ["a missing value", '{"a": }'],
    ["single-quoted keys", "{'a': 1}"],
    ["single-quoted values", "{\"a\": 'b'}"],
    ["an unquoted key", "{a: 1}"],
    ["a line comment", '{\n  // note\n  "a": 1\n}'],
    ["a block comment", '{ /* note */ "a": 1 }'],
    ["a string that runs to the end of the file", '{"a": "text'],
    ["a string broken across lines", '{\n  "a": "text\n  more"\n}'],
    ["a raw tab in a string", '{"a": "x\ty"}'],
    ["a bad escape", '{"a": "\\x41"}'],
    ["a short unicode escape", '{"a": "\\u12"}'],
    ["a leading zero", "[01]"],
    ["a leading plus", "[+1]"],
    ["a bare decimal point", "[.5]"],
    ["a trailing decimal point", "[1.]"],
    ["NaN", "[NaN]"],
    ["Infinity", "[Infinity]"],
    ["a capitalised True", '{"a": True}'],
    ["undefined", '{"a": undefined}'],
    ["an unclosed object", '{\n  "a": 1\n'],
    ["an unclosed array", "[1, 2"],
    ["an unclosed nested object", '{"a": {"b": 1}'],
    ["a stray closing bracket", '{"a": 1}]'],
    ["a second top-level value", '{"a": 1}\n{"b": 2}'],
    ["a lone closing brace", "}"],
    ["a mismatched bracket", '{"a": [1, 2}'],
  ])("reports %s with its line and column", (_, text) => {
    expect(syntaxError(text)).toMatch(/^\d+:\d+ /);
  });

  it("words each syntax error so a person can fix it", () => {
    const cases: Array<[string, string]> = [
      ["empty", ""],
      ["trailing comma in an array", "[1,\n 2,\n]"],
      ["trailing comma in an object", '{"a": 1, }'],
      ["missing comma in an object", '{"a": 1 "b": 2}'],
      ["missing comma in an array", "[1 2]"],
      ["missing colon", '{"a" 1}'],
      ["missing value", '{"a": }'],
      ["single-quoted key", "{'a': 1}"],
      ["single-quoted value", "{\"a\": 'b'}"],
      ["unquoted key", "{a: 1}"],
      ["line comment", '{\n  // note\n  "a": 1\n}'],
      ["block comment", '{ /* note */ "a": 1 }'],
      ["string to the end of the file", '{"a": "text'],
      ["string broken across lines", '{\n  "a": "text\n  more"\n}'],
      ["raw tab in a string", '{"a": "x\ty"}'],
      ["raw control character in a string", '{"a": "\u0001"}'],
      ["bad escape", '{"a": "\\x41"}'],
      ["backslash at the end of a line", '{"a": "x\\\ny"}'],
      ["short unicode escape", '{"a": "\\u12"}'],
      ["leading zero", "[01]"],
      ["leading plus", "[+1]"],
      ["NaN", "[NaN]"],
      ["capitalised True", '{"a": True}'],
      ["unclosed object", '{\n  "a": 1\n'],
      ["unclosed array", "[1, 2"],
      ["unclosed nested object", '{\n  "a": {\n    "b": 1\n  }\n'],
      ["stray closing bracket", '{"a": 1}]'],
      ["mismatched bracket", '{"a": [1, 2}'],
      ["mismatched brace", '[{"a": 1]'],
    ];
    expect(cases.map(([label, text]) => `${label} → ${syntaxError(text)}`).join("\n")).toMatchInlineSnapshot(`
      "empty → 1:1 File is empty: expected a JSON object
      trailing comma in an array → 2:3 Invalid JSON: trailing comma before ']' (JSON allows none), remove it
      trailing comma in an object → 1:8 Invalid JSON: trailing comma before '}' (JSON allows none), remove it
      missing comma in an object → 1:9 Invalid JSON: expected ',' or '}' after a property value, got '"'; is a comma missing?
      missing comma in an array → 1:4 Invalid JSON: expected ',' or ']' after an array element, got '2'; is a comma missing?
      missing colon → 1:6 Invalid JSON: expected ':' after a property name, got '1'
      missing value → 1:7 Invalid JSON: expected a value (object, array, string, number, true, false or null), got '}'
      single-quoted key → 1:2 Invalid JSON: expected a property name in double quotes, got a single quote (JSON strings use double quotes)
      single-quoted value → 1:7 Invalid JSON: expected a value (object, array, string, number, true, false or null), got a single quote (JSON strings use double quotes)
      unquoted key → 1:2 Invalid JSON: expected a property name in double quotes, got 'a'
      line comment → 2:3 Invalid JSON: expected a property name in double quotes, got a comment (JSON has no comments)
      block comment → 1:3 Invalid JSON: expected a property name in double quotes, got a comment (JSON has no comments)
      string to the end of the file → 1:7 Invalid JSON: unterminated string: expected a closing quote before the end of the file
      string broken across lines → 2:8 Invalid JSON: unterminated string: expected a closing quote before the end of the line
      raw tab in a string → 1:9 Invalid JSON: expected an escape such as \\t instead of a raw control character in a string, got a tab
      raw control character in a string → 1:8 Invalid JSON: expected an escape such as \\t instead of a raw control character in a string, got the control character U+0001
      bad escape → 1:8 Invalid JSON: expected a valid escape such as \\n, \\" or \\u00e9, got '\\x'
      backslash at the end of a line → 1:9 Invalid JSON: expected a valid escape such as \\n, \\" or \\u00e9, got a line break
      short unicode escape → 1:8 Invalid JSON: expected four hexadecimal digits after \\u, got '\\u12'
      leading zero → 1:2 Invalid JSON: expected a number without leading zeros, got '01'
      leading plus → 1:2 Invalid JSON: expected a value (object, array, string, number, true, false or null), got '+'
      NaN → 1:2 Invalid JSON: expected a value (object, array, string, number, true, false or null), got 'NaN'
      capitalised True → 1:7 Invalid JSON: expected a value (object, array, string, number, true, false or null), got 'True'
      unclosed object → 3:1 Invalid JSON: expected ',' or '}' after a property value, got the end of the file: the '{' at line 1, column 1 is never closed
      unclosed array → 1:6 Invalid JSON: expected ',' or ']' after an array element, got the end of the file: the '[' at line 1, column 1 is never closed
      unclosed nested object → 5:1 Invalid JSON: expected ',' or '}' after a property value, got the end of the file: the '{' at line 1, column 1 is never closed
      stray closing bracket → 1:9 Invalid JSON: expected the end of the file after the top-level value, got ']'
      mismatched bracket → 1:12 Invalid JSON: expected ',' or ']' after an array element, got '}': the '[' at line 1, column 7 is still open
      mismatched brace → 1:9 Invalid JSON: expected ',' or '}' after a property value, got ']': the '{' at line 1, column 2 is still open"
    `);
  });
});

describe("parseJsonDocument nesting", () => {
  it(`accepts ${MAX_NESTING_DEPTH} levels of nesting`, () => {
    const text = "[".repeat(MAX_NESTING_DEPTH) + "]".repeat(MAX_NESTING_DEPTH);
    expect(parseJsonDocument(text).ok).toBe(true);
  });

  it("reports deeper nesting as an error instead of overflowing the stack", () => {
    for (const depth of [MAX_NESTING_DEPTH + 1, 100_000]) {
      const text = "[".repeat(depth) + "]".repeat(depth);
      expect(syntaxError(text)).toBe(`1:${MAX_NESTING_DEPTH + 1} Invalid JSON: values nested more than ${MAX_NESTING_DEPTH} levels deep`);
    }
  });
});

describe("formatJsonPath", () => {
  it("writes identifiers with dots, indexes in brackets and other keys quoted", () => {
    expect(formatJsonPath([])).toBe("");
    expect(formatJsonPath(["tools", 2, "timeoutMs"])).toBe("tools[2].timeoutMs");
    expect(formatJsonPath(["tools", 0, "inputSchema", "properties", "a b"])).toBe('tools[0].inputSchema.properties["a b"]');
    expect(formatJsonPath(["$schema"])).toBe("$schema");
    expect(formatJsonPath(["env", "MY-VAR"])).toBe('env["MY-VAR"]');
    expect(formatJsonPath(["x", "1abc", "_ok"])).toBe('x["1abc"]._ok');
    expect(formatJsonPath([0, "a"])).toBe("[0].a");
    expect(formatJsonPath(["quote\"d"])).toBe('["quote\\"d"]');
    expect(formatJsonPath(["a", ""])).toBe('a[""]');
  });
});
