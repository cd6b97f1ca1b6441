/** Patterns run on the linear-time engine: a catastrophic pattern answers at once, ordinary ones mean what they meant. */
import { monitorEventLoopDelay } from "node:perf_hooks";
import { describe, expect, it } from "vitest";
import { compileLinearPattern, toRe2Syntax } from "../../src/core/schema/linear-pattern.js";
import { compileSchema, formatSchemaProblems } from "../../src/core/schema/schema-validator.js";
import { findUncheckedPatterns } from "../../src/core/schema/find-unchecked-patterns.js";

/** Each pattern with strings that must get the same answer from V8 (with the u flag) and the linear engine. */
const SAME_ANSWERS: Array<[pattern: string, inputs: string[]]> = [
  ["^[a-z]+$", ["abc", "aBc", "", "abc\n", "é"]],
  ["^\\d{3}-\\d{4}$", ["555-1234", "5551234", "١٢٣-4567", "555-12345"]],
  ["\\bcat\\b", ["a cat sat", "concat", "cat", "cats"]],
  ["^\\w+@\\w+\\.com$", ["me@example.com", "me@ex-ample.com", "é@x.com"]],
  ["^\\s*$", ["", " \t\n", "\u00a0\u2028\u3000\ufeff", "\v", "x", "\u200b"]],
  ["^\\S+$", ["abc", "a b", "a\u00a0b", "\u200b", "😀"]],
  ["^[\\s\\d]+$", ["1 2\u00a03", "1x"]],
  ["^[^\\S]+$", [" \u3000", "a "]],
  ["^.$", ["a", "\n", "\r", "\u2028", "😀", "\ud800", "é"]],
  ["^..$", ["😀", "ab"]],
  ["^\\p{L}+$", ["héllo", "ΑΒΓ", "abc1", "日本"]],
  ["^\\p{Lu}\\P{Lu}*$", ["Hello", "HEllo", "hello"]],
  ["^\\p{Letter}+$", ["abc", "a1"]],
  ["^\\p{Script=Greek}+$", ["αβγ", "abc"]],
  ["^\\p{sc=Latin}+$", ["abc", "αβγ"]],
  ["^\\p{ASCII}+$", ["abc~", "é"]],
  ["^[\\p{N}\\-]+$", ["12-3", "1a"]],
  ["^\\u00e9$", ["é", "e"]],
  ["^\\u{1F600}$", ["😀", "😁"]],
  ["^\\uD83D\\uDE00$", ["😀", "😁"]],
  ["^[\\u0041-\\u005A]+$", ["ABC", "abc"]],
  ["^\\x41\\cJ\\0$", ["A\n\0", "A\n"]],
  ["^\\/path\\.\\*\\?\\+\\(\\)\\[\\]\\{\\}\\|\\^\\$$", ["/path.*?+()[]{}|^$", "/pathx"]],
  ["^[.*+?()|{}^$]+$", [".*+?()|{}^$", "a"]],
  ["^[a-]+$|^[-z]+$", ["a-a", "-z", "b"]],
  ["^(?:ab|cd){2,3}$", ["abcd", "ab", "abcdabcd", "abababab"]],
  ["^(?<year>\\d{4})-(\\d{2})$", ["2024-05", "24-05"]],
  ["^a*?b+?c??$", ["aab", "bc", "ac"]],
  ["^[^]$", ["x", "\n", ""]],
  ["^[]$", ["x", ""]],
  ["^[\\b]$", ["\b", "b"]],
  ["\\Bfoo", ["afoo", "foo", "a foo"]],
  ["^a$", ["a", "a\n", "\na"]],
  ["colou?r", ["color", "colour", "colr"]],
  ["^[#%&~'\"`,;:<>=@!]+$", ["#%&~'\"`,;:<>=@!", "a"]],
  ["^a{2}b{1,}c{0,1}$", ["aab", "aabbbc", "ab"]],
  ["^[^a-c]$", ["d", "a", "😀"]],
  ["\\t\\n\\v\\f\\r", ["\t\n\v\f\r", "tnvfr"]],
];

describe("the linear pattern engine", () => {
  it.each(SAME_ANSWERS)("answers %j as V8 does", (pattern, inputs) => {
    const linear = compileLinearPattern(pattern);
    expect(linear.ok, `translated to ${toRe2Syntax(pattern)}`).toBe(true);
    const native = new RegExp(pattern, "u");
    for (const input of inputs) expect([input, linear.ok && linear.test(input)]).toEqual([input, native.test(input)]);
  });

  it("answers the observed catastrophic case (^(a+)+$ on 28 a's and !) at once while a timer keeps firing", async () => {
    const validate = compileSchema({ type: "object", properties: { value: { type: "string", pattern: "^(a+)+$" } } });
    const monitor = monitorEventLoopDelay({ resolution: 1 });
    monitor.enable();
    // The widest gap between two turns of a 1 ms timer: how long the loop was blocked.
    let last = performance.now();
    let widestGap = 0;
    const timer = setInterval(() => {
      widestGap = Math.max(widestGap, performance.now() - last);
      last = performance.now();
    }, 1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const answers: string[] = [];
    for (let round = 0; round < 20; round++) {
      answers.push(formatSchemaProblems(validate({ value: `${"a".repeat(28)}!` })));
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
    clearInterval(timer);
    monitor.disable();
    expect(answers[0]).toMatchInlineSnapshot(`"value: must match pattern "^(a+)+$""`);
    expect(new Set(answers).size).toBe(1);
    // Before the linear engine, the first of these calls alone blocked the loop for about 10 s. Alone
    // this measures 1–5 ms; 1 s leaves room for a busy machine (other processes on both cores).
    expect(widestGap).toBeLessThan(1_000);
    expect(monitor.max / 1e6).toBeLessThan(1_000);
  });

  it("stays linear on a 1 MB attack string", () => {
    const validate = compileSchema({ type: "object", properties: { value: { type: "string", pattern: "^(a+)+$" } } });
    const started = performance.now();
    expect(validate({ value: `${"a".repeat(1_000_000)}!` })).toHaveLength(1);
    // A backtracking engine would not answer at all; the margin is for a busy machine.
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it("checks patternProperties keys on the linear engine too", () => {
    const validate = compileSchema({ type: "object", patternProperties: { "^(a|aa)+$": { type: "number" } }, additionalProperties: false });
    const started = performance.now();
    expect(formatSchemaProblems(validate({ [`${"a".repeat(40)}!`]: 1, aaa: 2 }))).toMatchInlineSnapshot(`"arguments: unknown property "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!""`);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(validate({ aaa: "x" })).toHaveLength(1);
  });

  it("refuses lookaround and backreferences with a reason, and leaves such a keyword unchecked", () => {
    expect(compileLinearPattern("^(?=.*\\d).{8,}$")).toEqual({ ok: false, reason: "lookahead (?= or (?! is not supported" });
    expect(compileLinearPattern("(?<!x)y")).toEqual({ ok: false, reason: "lookbehind (?<= or (?<! is not supported" });
    expect(compileLinearPattern("(a)\\1")).toEqual({ ok: false, reason: "backreferences are not supported" });
    expect(compileLinearPattern("a{2,1001}")).toEqual({ ok: false, reason: "a repetition count above 1000 is not supported" });
    expect(compileLinearPattern("^(?:\\p{L}{1,1000}\\p{N}{1,1000}){1,1000}$")).toMatchObject({ ok: false, reason: expect.stringContaining("linear-time engine cannot run it") });
    const validate = compileSchema({ type: "object", properties: { code: { type: "string", pattern: "^(?=.*\\d)" } } });
    expect(validate({ code: "no digits" })).toEqual([]);
    expect(() => compileLinearPattern("(")).toThrow(SyntaxError);
  });

  it("finds unchecked patterns with their paths, under every schema keyword but not in data", () => {
    const problems = findUncheckedPatterns({
      type: "object",
      properties: { pin: { type: "string", pattern: "(\\d)\\1" }, pattern: { const: "(?=x)" } },
      patternProperties: { "^(?!x)": {} },
      items: [{ anyOf: [{ pattern: "(?<=a)" }] }],
      $defs: { ok: { pattern: "^a+$" } },
      default: { pattern: "(?=data, not schema)" },
    });
    expect(problems.map((problem) => problem.path)).toEqual([["properties", "pin", "pattern"], ["patternProperties", "^(?!x)"], ["items", 0, "anyOf", 0, "pattern"]]);
    expect(problems[0]!.message).toMatchInlineSnapshot(`"pattern "(\\\\d)\\\\1" cannot be checked in linear time: backreferences are not supported"`);
  });
});
