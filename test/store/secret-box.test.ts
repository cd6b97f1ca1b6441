/** Secrets at rest: sealed values open with the same key only, and a missing or short key is refused up front. */
import { describe, expect, it } from "vitest";
import { createSecretBox } from "../../src/core/store/secret-box.js";

const KEY = "0123456789abcdef0123456789abcdef";

describe("createSecretBox", () => {
  it("opens what it sealed, hides the text, and uses a fresh IV each time", () => {
    const box = createSecretBox({ TOOLEXEC_STORE_KEY: KEY });
    const sealed = box.seal('{"access_token":"secret-token"}');
    expect(sealed).not.toContain("secret-token");
    expect(box.seal("same")).not.toBe(box.seal("same"));
    expect(box.open(sealed)).toBe('{"access_token":"secret-token"}');
  });

  it("refuses a value sealed with another key, or altered", () => {
    const sealed = createSecretBox({ TOOLEXEC_STORE_KEY: KEY }).seal("token");
    expect(() => createSecretBox({ TOOLEXEC_STORE_KEY: KEY.toUpperCase() }).open(sealed)).toThrow(expect.objectContaining({ code: "AUTH_FAILED" }));
    const altered = sealed.slice(0, -2) + (sealed.endsWith("A") ? "BB" : "AA");
    expect(() => createSecretBox({ TOOLEXEC_STORE_KEY: KEY }).open(altered)).toThrow(expect.objectContaining({ code: "AUTH_FAILED" }));
    expect(() => createSecretBox({ TOOLEXEC_STORE_KEY: KEY }).open("plain")).toThrow(/malformed/);
  });

  it("refuses a missing or short key with what to do", () => {
    expect(() => createSecretBox({})).toThrow(expect.objectContaining({ code: "CONFIG_MISSING", message: expect.stringContaining("TOOLEXEC_STORE_KEY is not set") }));
    expect(() => createSecretBox({ TOOLEXEC_STORE_KEY: "short" })).toThrow(expect.objectContaining({ code: "CONFIG_INVALID", message: expect.stringContaining("at least 32") }));
  });
});
