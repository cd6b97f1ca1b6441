/** The result store: byte cap with least-recently-used eviction, a time to live refreshed by reads, and reads scoped to a session. */
import { describe, expect, it } from "vitest";
import { createResultStore } from "../../src/core/results/result-store.js";

const text = (chars: number) => "x".repeat(chars);

describe("result store", () => {
  it("makes unguessable handles: r_ and 128 random bits", () => {
    const store = createResultStore();
    const handles = new Set(Array.from({ length: 1_000 }, () => store.createHandle()));
    expect(handles.size).toBe(1_000);
    for (const handle of handles) expect(handle).toMatch(/^r_[A-Za-z0-9_-]{22}$/);
  });

  it("evicts the least recently used entry to stay under its byte cap; a read makes an entry recent", () => {
    // Two bytes per character of text: each entry of 100 characters takes 200 bytes.
    const store = createResultStore({ maxBytes: 600 });
    for (const handle of ["r_a", "r_b", "r_c"]) expect(store.put({ handle, tool: "t", value: text(100), text: text(100), maxChars: 10, scope: undefined })).toBe(true);
    expect(store.get("r_a", undefined)).toBeDefined();
    store.put({ handle: "r_d", tool: "t", value: text(100), text: text(100), maxChars: 10, scope: undefined });
    expect(store.get("r_b", undefined)).toBeUndefined();
    expect(["r_a", "r_c", "r_d"].map((handle) => store.get(handle, undefined)?.handle)).toEqual(["r_a", "r_c", "r_d"]);
    expect(store.bytes).toBe(600);
  });

  it("keeps nothing of a value larger than the whole store", () => {
    const store = createResultStore({ maxBytes: 100 });
    expect(store.put({ handle: "r_big", tool: "t", value: text(51), text: text(51), maxChars: 10, scope: undefined })).toBe(false);
    expect(store.bytes).toBe(0);
  });

  it("forgets an entry once its time to live passed since it was stored or last read", () => {
    let now = 1_000;
    const store = createResultStore({ ttlMs: 100, now: () => now });
    store.put({ handle: "r_a", tool: "t", value: "a", text: "a", maxChars: 10, scope: undefined });
    now += 99;
    expect(store.get("r_a", undefined)).toBeDefined();
    now += 99;
    expect(store.get("r_a", undefined)).toBeDefined();
    now += 100;
    expect(store.get("r_a", undefined)).toBeUndefined();
    expect(store.bytes).toBe(0);
  });

  it("lets a session read only its own entries, and the host read every one", () => {
    const store = createResultStore();
    store.put({ handle: "r_mine", tool: "t", value: "a", text: "a", maxChars: 10, scope: "session-1" });
    store.put({ handle: "r_host", tool: "t", value: "a", text: "a", maxChars: 10, scope: undefined });
    expect(store.get("r_mine", "session-1")).toBeDefined();
    expect(store.get("r_mine", "session-2")).toBeUndefined();
    expect(store.get("r_host", "session-1")).toBeUndefined();
    expect(store.get("r_mine", undefined)).toBeDefined();
  });
});
