/**
 * How a value is cut to its budget: untouched (the same object) under it; text at a clean boundary,
 * never between the halves of a surrogate pair; structure on whole items and keys with what was left
 * out said; an object inside an array cut inside only when it is the first; blobs replaced.
 */
import { describe, expect, it } from "vitest";
import { boundResult } from "../../src/core/results/bound-result.js";
import { cleanCutEnd } from "../../src/core/results/clean-cut.js";
import { createResultStore } from "../../src/core/results/result-store.js";
import type { ToolSuccess } from "../../src/index.js";

const success = (value: unknown, content?: unknown): ToolSuccess => ({ ok: true, value, ...(content === undefined ? {} : { content }), executionId: "e", tool: "t", durationMs: 1 });
const bound = (value: unknown, maxChars: number, extra: { content?: unknown; keepValue?: boolean } = {}) =>
  boundResult(success(value, extra.content), { store: createResultStore(), maxChars, scope: undefined, keepValue: extra.keepValue ?? false });

describe("boundResult", () => {
  it("hands back the very same result when the value fits: no copy", () => {
    for (const value of ["short", { rows: [1, 2, 3] }, [{ a: "x".repeat(40) }], null, 42]) {
      const result = success(value, [{ type: "text", text: "raw" }]);
      expect(boundResult(result, { store: createResultStore(), maxChars: 100, scope: undefined, keepValue: false })).toBe(result);
    }
  });

  it("cuts text at a line end or a space near the budget, never inside a surrogate pair", () => {
    const words = "word ".repeat(100);
    expect(cleanCutEnd(words, 0, 203)).toBe(200);
    const lines = "a line of text\n".repeat(100);
    expect(cleanCutEnd(lines, 0, 200)).toBe(195);
    const emoji = "ab😀cd";
    expect(cleanCutEnd(emoji, 0, 3)).toBe(2);
    expect(cleanCutEnd(emoji, 2, 1)).toBe(4);
    const shown = bound("😀".repeat(100), 51);
    expect(shown.truncated!.text.split("\n")[0]).toBe("😀".repeat(25));
  });

  it("cuts an object on its keys and a nested array on its items, naming each place and how much of it was left out", () => {
    const value = { title: "report", rows: Array.from({ length: 500 }, (_, id) => ({ id, name: `row ${id}` })), footer: "end" };
    const shown = bound(value, 400);
    const { value: cut, truncated } = shown as ToolSuccess & { value: { title: string; rows: unknown[] } };
    expect(cut.title).toBe("report");
    expect(cut.rows).toEqual(value.rows.slice(0, cut.rows.length));
    expect(JSON.stringify(cut).length).toBeLessThanOrEqual(400);
    expect(truncated!.omitted).toEqual([
      { path: "$.rows", unit: "items", left: 500 - cut.rows.length, of: 500 },
      { path: "$", unit: "keys", left: 1, of: 3 },
    ]);
    expect(truncated!.text.split("\n").at(-1)).toMatch(
      new RegExp(`^\\[… left out: ${500 - cut.rows.length} of 500 items at \\$\\.rows; 1 of 3 keys at \\$; [\\d,]+ characters in all: read_result \\{"handle":"r_[^"]+","path":"\\$\\.rows","offset":${cut.rows.length}\\}\\]$`),
    );
    expect(shown).not.toHaveProperty("content");
  });

  it("keeps a tool's value whole when it declares an outputSchema, and bounds only the text a model reads", () => {
    const value = { rows: Array.from({ length: 500 }, (_, id) => ({ id })) };
    const shown = bound(value, 300, { keepValue: true });
    expect(shown.value).toBe(value);
    expect(shown.truncated!.text.length).toBeLessThan(600);
  });

  it("stays within the budget when escapes make the JSON longer than its estimate", () => {
    const value = Array.from({ length: 300 }, () => ({ quote: '"\\"\\"\\"\\"\\"\\"' }));
    const shown = bound(value, 500);
    const head = shown.truncated!.text.split("\n")[0]!;
    expect(head.length).toBeLessThanOrEqual(500);
    // Cut smaller on structure, not as text: the head is still whole items.
    const items = JSON.parse(head) as unknown[];
    expect(items).toEqual(value.slice(0, items.length));
  });

  it("replaces a blob past the budget by a note, and keeps a small one whole", () => {
    const small = { type: "image", data: "A".repeat(100), mimeType: "image/png" };
    const large = { type: "image", data: "A".repeat(10_000), mimeType: "image/png" };
    const shown = bound([small, large], 2_000);
    const cut = shown.value as Array<Record<string, unknown>>;
    expect(cut[0]).toEqual(small);
    expect(cut).toHaveLength(2);
    expect(cut[1]).toMatchObject({ type: "image", mimeType: "image/png", omitted: expect.stringMatching(/^\[image\/png, 10,000 characters of base64 left out: read_result \{"handle":"r_[^"]+","path":"\$\[1\]"\}\]$/) });
  });
});
