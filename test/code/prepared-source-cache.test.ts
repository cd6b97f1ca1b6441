/** The parser pre-pass runs once per code text (bounded) and once per saved tool version. */
import { describe, expect, it } from "vitest";
import { createPreparedSourceCache, MAX_CACHED_CODE_CHARS, PREPARED_SOURCE_CACHE_ENTRIES } from "../../src/plugins/code/prepared-source-cache.js";
import { prepareSource } from "../../src/plugins/code/prepare-source.js";

describe("prepared sources", () => {
  it("are made once per code text, and equal what the pre-pass makes", () => {
    const sources = createPreparedSourceCache();
    const first = sources.prepare("const a = 1;\na + 1");
    expect(first).toEqual(prepareSource("const a = 1;\na + 1"));
    expect(sources.prepare("const a = 1;\na + 1")).toBe(first);
    // A syntax error is a result of the code too.
    const broken = sources.prepare("1 +");
    expect(broken).toMatchObject({ ok: false, message: "Unexpected token at line 1, column 4" });
    expect(sources.prepare("1 +")).toBe(broken);
  });

  it(`keep the ${PREPARED_SOURCE_CACHE_ENTRIES} most recently used codes, none longer than ${MAX_CACHED_CODE_CHARS} characters`, () => {
    const sources = createPreparedSourceCache();
    const kept = sources.prepare("0");
    const dropped = sources.prepare("1");
    for (let index = 2; index < PREPARED_SOURCE_CACHE_ENTRIES; index++) sources.prepare(String(index));
    // "0" used again moves to the end; "1" is now the least recently used and goes.
    expect(sources.prepare("0")).toBe(kept);
    sources.prepare("-1");
    expect(sources.prepare("0")).toBe(kept);
    const again = sources.prepare("1");
    expect(again).not.toBe(dropped);
    expect(again).toEqual(dropped);

    const long = "x".repeat(MAX_CACHED_CODE_CHARS + 1);
    expect(sources.prepare(long)).not.toBe(sources.prepare(long));
  });

  it("keep a saved tool's preparation for as long as the tool object lives, whatever its length", () => {
    const sources = createPreparedSourceCache();
    const code = `${"0;\n".repeat(MAX_CACHED_CODE_CHARS)}1`;
    const tool = { code };
    const first = sources.prepare(code, tool);
    expect(first.ok).toBe(true);
    expect(sources.prepare(code, tool)).toBe(first);
    // Another version of the tool (an edit makes a new object) is prepared on its own.
    expect(sources.prepare(code, { code })).not.toBe(first);
  });
});
