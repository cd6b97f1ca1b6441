/** `redactedPrefix` gives the same text as serializing the full redacted copy, and never a secret. */
import { describe, expect, it } from "vitest";
import { createRedactor, DEFAULT_REDACT_KEYS } from "../../src/core/log/redact.js";

const redactor = createRedactor(DEFAULT_REDACT_KEYS);
const SECRETS = ["ENV-SECRET-VALUE", "424242"];

const cyclic: Record<string, unknown> = { name: "loop" };
cyclic.self = cyclic;
const values: unknown[] = [
  { a: 1, password: "hunter2", nested: [1, "x ENV-SECRET-VALUE y", { token: "t", max_tokens: 5 }], skipped: undefined, fn: () => 1, pin: 424242 },
  [undefined, () => 1, Symbol("s"), null, true, Number.NaN, 10n, new Date(0), { toJSON: () => ({ api_key: "k" }) }],
  { "key ENV-SECRET-VALUE": "v", auth: "", cookie: null, list: Array.from({ length: 50 }, (_, index) => ({ index, secret: `s${index}` })) },
  cyclic,
];

describe("redactedPrefix", () => {
  it.each(values.map((value, index) => [index, value]))("value %i: equals the full redacted JSON when the budget covers it", (_, value) => {
    expect(redactor.redactedPrefix(value, SECRETS, Infinity)).toBe(JSON.stringify(redactor.redact(value, SECRETS)));
  });

  it("stops soon after the budget, with the same first characters", () => {
    const wide = Object.fromEntries(Array.from({ length: 5000 }, (_, index) => [`k${index}`, index % 7 === 0 ? { password: `p${index}` } : `v${index}`]));
    const full = JSON.stringify(redactor.redact(wide, SECRETS));
    const prefix = redactor.redactedPrefix(wide, SECRETS, 1000);
    expect(prefix.length).toBeGreaterThanOrEqual(1000);
    expect(prefix.length).toBeLessThan(1100);
    expect(full.startsWith(prefix.slice(0, -1))).toBe(true);
    expect(prefix).not.toMatch(/"p\d+"/);
  });

  it("tests each key once against the patterns joined, as the patterns one by one would", () => {
    const custom = createRedactor([/^x-(?<kind>a)$/i, /b+c/i, /(d)\1/g]);
    expect(custom.redact({ "X-A": 1, abbc: 2, dd: 3, d: 4, "x-ab": 5 })).toEqual({ "X-A": "[REDACTED]", abbc: "[REDACTED]", dd: "[REDACTED]", d: 4, "x-ab": 5 });
  });
});
