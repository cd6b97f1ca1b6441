/**
 * Redaction on a value's JSON text (what the execution log does to a large argument or answer in
 * its flush, a slice at a time) gives the same text as redacting the parsed value and serializing
 * it, finds the same echoed secrets, and pauses as it goes.
 */
import { describe, expect, it } from "vitest";
import { runNow, TOKENS_PER_STEP } from "../../src/core/log/redact-json-text.js";
import { createRedactor, DEFAULT_REDACT_KEYS } from "../../src/core/log/redact.js";

const redactor = createRedactor(DEFAULT_REDACT_KEYS);
const SECRETS = ["ENV-SECRET-VALUE", "424242"];

const values: unknown[] = [
  { a: 1, password: "hunter2", nested: [1, "x ENV-SECRET-VALUE y", { token: "t", max_tokens: 5 }], pin: 424242, float: -1.5e-7 },
  [null, true, false, 0, "quote \" and \\ backslash \n newline \u2028", { api_key: { deep: ["k1", 2, { x: "k3" }] } }, []],
  { "key ENV-SECRET-VALUE": "v", auth: "", cookie: null, empty: {}, list: Array.from({ length: 50 }, (_, index) => ({ index, secret: `s${index}` })) },
  { credentials: [{ user: "u", pass: "p" }], after: "u and p stay; k1 is an echo" },
  "a string ENV-SECRET-VALUE",
  424242,
];

describe("redaction on JSON text", () => {
  it.each(values.map((value, index) => [index, value]))("value %i: the same text as the redacted copy serialized", (_, value) => {
    const secrets = [...SECRETS, ...redactor.secretValues(value)];
    expect(runNow(redactor.redactedText(JSON.stringify(value), secrets, Infinity))).toBe(JSON.stringify(redactor.redact(value, secrets)));
  });

  it.each(values.map((value, index) => [index, value]))("value %i: finds the same echoed secrets", (_, value) => {
    const found = new Set<string>();
    runNow(redactor.secretValuesInText(JSON.stringify(value), found));
    expect([...found].sort()).toEqual(redactor.secretValues(value).sort());
  });

  it("stops soon after the budget, with the same first characters, and pauses every few hundred tokens", () => {
    const wide = Object.fromEntries(Array.from({ length: 5000 }, (_, index) => [`k${index}`, index % 7 === 0 ? { password: `p${index}` } : `v${index}`]));
    const full = JSON.stringify(redactor.redact(wide, SECRETS));
    const steps = redactor.redactedText(JSON.stringify(wide), SECRETS, 1000);
    let pauses = 0;
    let step = steps.next();
    for (; !step.done; step = steps.next()) pauses++;
    const prefix = step.value;
    expect(prefix.length).toBeGreaterThanOrEqual(1000);
    expect(prefix.length).toBeLessThan(1100);
    expect(full.startsWith(prefix)).toBe(true);
    expect(prefix).not.toMatch(/"p\d+"/);
    const whole = redactor.redactedText(JSON.stringify(wide), SECRETS, Infinity);
    let wholePauses = 0;
    while (!whole.next().done) wholePauses++;
    expect(pauses).toBeLessThan(wholePauses);
    expect(wholePauses).toBeGreaterThanOrEqual(Math.floor(20_000 / TOKENS_PER_STEP));
  });
});

