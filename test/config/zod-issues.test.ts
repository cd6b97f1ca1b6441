/** zod issues in words: what was expected, what came, at which path (used for both config files). */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { describeValue } from "../../src/core/json/describe-value.js";
import { formatJsonPath } from "../../src/core/json/parse-json-document.js";
import { describeZodIssues } from "../../src/core/config/zod-issues.js";

/** A schema shaped like createExecutor's options: unions with false, functions, nested strict objects. */
const schema = z.strictObject({
  root: z.string().min(1).optional(),
  watch: z.boolean().optional(),
  toolsConfig: z.union([z.string().min(1), z.literal(false)]).optional(),
  log: z.strictObject({ maxFiles: z.number().int().positive().optional(), tags: z.array(z.string()).max(2).optional() }).optional(),
  onHumanInput: z.function().optional(),
  plugins: z.array(z.looseObject({ name: z.string().min(1), start: z.function() })).optional(),
  mode: z.enum(["fast", "safe"]).optional(),
  code: z.string().max(3).optional(),
});

/** The issues for `value`, one `path: message` line each, as a host would print them. */
function describeAll(value: unknown): string {
  const result = schema.safeParse(value);
  if (result.success) return "valid";
  return describeZodIssues(result.error.issues, schema, value)
    .map(({ path, message }) => `${formatJsonPath(path) || "(top level)"}: ${message}`)
    .join("\n");
}

describe("describeZodIssues", () => {
  it("reports one bound per place: the tighter of an integer's safe range and its maximum", () => {
    const bounded = z.strictObject({ timeoutMs: z.number().int().positive().max(2147483647) });
    const issues = describeZodIssues(bounded.safeParse({ timeoutMs: 1e20 }).error!.issues, bounded, { timeoutMs: 1e20 });
    expect(issues.map(({ message }) => message)).toMatchInlineSnapshot(`
      [
        "Expected a number of at most 2147483647, got 100000000000000000000",
      ]
    `);
  });

  it("words every kind of issue with what was expected and what came", () => {
    const text = [
      { toolConfig: "tools.json" },
      { watch: "true" },
      { watch: "no" },
      { toolsConfig: true },
      { toolsConfig: "" },
      { root: "" },
      { log: { maxFiles: 0, tags: ["a", "b", "c"], extra: 1 } },
      { log: { maxFiles: "12" } },
      { onHumanInput: "ask" },
      { plugins: [{ start: () => undefined }] },
      { plugins: [{ name: "x", start: "go" }] },
      { mode: "Fast" },
      { code: "abcd" },
      "./my-project",
      null,
    ]
      .map((value) => describeAll(value))
      .join("\n");
    expect(text).toMatchInlineSnapshot(`
      "toolConfig: Unknown key "toolConfig" (did you mean "toolsConfig"?); expected one of: root, watch, toolsConfig, log, onHumanInput, plugins, mode, code
      watch: Expected a boolean, got "true" (remove the quotes)
      watch: Expected a boolean, got "no"
      toolsConfig: Expected a string or false, got true
      toolsConfig: Expected a non-empty string, got ""
      root: Expected a non-empty string, got ""
      log.maxFiles: Expected a number greater than 0, got 0
      log.tags: Expected at most 2 items, got 3 items
      log.extra: Unknown key "extra"; expected one of: maxFiles, tags
      log.maxFiles: Expected a number, got "12" (remove the quotes)
      onHumanInput: Expected a function, got "ask"
      plugins[0]: Missing required key "name" (expected a string)
      plugins[0].start: Expected a function, got "go"
      mode: Expected one of "fast", "safe", got "Fast"
      code: Expected at most 3 characters, got "abcd"
      (top level): Expected an object, got "./my-project"
      (top level): Expected an object, got null"
    `);
  });

  it("marks unknown keys so they are located at the key, not the value", () => {
    const result = schema.safeParse({ extra: 1 });
    expect(describeZodIssues(result.error!.issues, schema, { extra: 1 })).toEqual([
      { path: ["extra"], message: expect.stringContaining('Unknown key "extra"'), atKey: true },
    ]);
  });
});

describe("describeValue", () => {
  it("describes values briefly", () => {
    expect(
      [undefined, null, [], {}, () => 1, "ruby", "x".repeat(50), 0, -1.5, true, 10n].map((value) => describeValue(value)).join(" | "),
    ).toMatchInlineSnapshot(`"nothing | null | an array | an object | a function | "ruby" | "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx..." (50 characters) | 0 | -1.5 | true | 10"`);
  });
});
