/** createRedactor and createSecretScrubber on their own: which keys and strings are hidden, and what stays. */
import { describe, expect, it } from "vitest";
import { DEFAULT_REDACT_KEYS, REDACTED, createRedactor } from "../../src/core/log/redact.js";
import { createSecretScrubber } from "../../src/core/log/scrub-secrets.js";

const redactor = createRedactor(DEFAULT_REDACT_KEYS);

describe("createRedactor: keys", () => {
  it.each([
    "password", "Password", "db_password", "passwd", "passphrase", "secret", "client_secret", "clientSecret",
    "token", "access_token", "refreshToken", "apiKey", "api_key", "api-key", "X-Api-Key", "auth", "Authorization",
    "proxy-authorization", "cookie", "Set-Cookie", "credentials", "private_key", "privateKey", "accessKey", "session_id", "sessionId",
  ])("redacts %s", (key) => {
    expect(redactor.redact({ [key]: "value" })).toEqual({ [key]: REDACTED });
  });

  it.each(["max_tokens", "maxTokens", "input_tokens", "tokens", "author", "authority", "query", "passage", "keyword", "session"])("keeps %s", (key) => {
    expect(redactor.redact({ [key]: "value" })).toEqual({ [key]: "value" });
  });

  it("redacts whatever sits under a secret key, objects and numbers included, but keeps empty values visible", () => {
    expect(redactor.redact({ credentials: { user: "u", pass: "p" }, pin_password: 1234, token: null, password: "", apiKey: undefined })).toEqual({
      credentials: REDACTED,
      pin_password: REDACTED,
      token: null,
      password: "",
      apiKey: undefined,
    });
  });

  it("redacts inside arrays and nested objects", () => {
    expect(redactor.redact([{ headers: { Authorization: "Bearer x", accept: "json" } }, [{ token: "t" }]])).toEqual([
      { headers: { Authorization: REDACTED, accept: "json" } },
      [{ token: REDACTED }],
    ]);
  });

  it("matches /g and /y patterns on every key, not every other one", () => {
    const stateful = createRedactor([/^internal/g, /ssn/y]);
    expect(stateful.redact({ internal_a: 1, internal_b: 2, internal_c: 3, ssn: 4, ssn2: 5, other: 6 })).toEqual({
      internal_a: REDACTED,
      internal_b: REDACTED,
      internal_c: REDACTED,
      ssn: REDACTED,
      ssn2: REDACTED,
      other: 6,
    });
  });
});

describe("createRedactor: copies", () => {
  it("returns a copy and leaves the input untouched", () => {
    const input = { password: "p", nested: { token: "t" } };
    const output = redactor.redact(input);
    expect(input).toEqual({ password: "p", nested: { token: "t" } });
    expect(output).not.toBe(input);
  });

  it("marks a real cycle, but not the same object reached twice", () => {
    const shared = { city: "Lyon" };
    const loop: Record<string, unknown> = { name: "loop" };
    loop.self = loop;
    expect(redactor.redact({ from: shared, to: shared, list: [shared, shared], loop })).toEqual({
      from: { city: "Lyon" },
      to: { city: "Lyon" },
      list: [{ city: "Lyon" }, { city: "Lyon" }],
      loop: { name: "loop", self: "[Circular]" },
    });
  });

  it("produces what JSON.stringify can always write: toJSON applied, bigints as strings", () => {
    const when = new Date("2026-01-02T03:04:05.000Z");
    const selfish = { toJSON() { return this; }, token: "t" };
    const output = redactor.redact({ when, count: 12345678901234567890n, buffer: Buffer.from("hi"), selfish, map: new Map([["a", 1]]) });
    expect(output).toEqual({
      when: "2026-01-02T03:04:05.000Z",
      count: "12345678901234567890",
      buffer: { type: "Buffer", data: [104, 105] },
      selfish: { toJSON: expect.any(Function), token: REDACTED },
      map: {},
    });
    expect(() => JSON.stringify(output)).not.toThrow();
  });
});

describe("createRedactor: secret strings", () => {
  const secrets = ["tok-9f8e7d6c5b4a3928", "73914682"];

  it("hides a secret anywhere in strings and keys, and a number that is a secret", () => {
    expect(redactor.redact({ note: "the key is tok-9f8e7d6c5b4a3928!", "tok-9f8e7d6c5b4a3928": 1, pin: 73914682, big: 10n ** 7n * 73914682n, other: 739146820 }, secrets)).toEqual({
      note: `the key is ${REDACTED}!`,
      [REDACTED]: 1,
      pin: REDACTED,
      big: "739146820000000",
      other: 739146820,
    });
  });

  it("does not search for secrets shorter than 3 characters", () => {
    expect(redactor.redact({ flag: "1", text: "a1b" }, ["1", "ab"])).toEqual({ flag: "1", text: "a1b" });
  });
});

describe("createSecretScrubber", () => {
  const secret = "tok-9f8e7d6c5b4a3928";
  const scrub = createSecretScrubber([secret, "short"]);

  it("replaces every occurrence of every secret", () => {
    expect(scrub(`${secret} and ${secret}, short`)).toBe(`${REDACTED} and ${REDACTED}, ${REDACTED}`);
  });

  it("prefers the longest secret when one contains another", () => {
    expect(createSecretScrubber(["abc", "abcdef"])("xabcdefx")).toBe(`x${REDACTED}x`);
  });

  it("hides the end of a secret where a tail was cut, at the start of the text or of a word", () => {
    expect(scrub(`${secret.slice(-9)}yyy\nexit`)).toBe(`${REDACTED}yyy\nexit`);
    expect(scrub(`exited with code 3: ${secret.slice(-9)}yyy`)).toBe(`exited with code 3: ${REDACTED}yyy`);
  });

  it("hides the start of a secret where a text was cut, before an ellipsis or quotes", () => {
    expect(scrub(`eee ${secret.slice(0, 7)}...`)).toBe(`eee ${REDACTED}...`);
    expect(scrub(`it printed "${secret.slice(0, 10)}..."`)).toBe(`it printed "${REDACTED}..."`);
    expect(scrub(`stdout: ${secret.slice(0, 8)}`)).toBe(`stdout: ${REDACTED}`);
  });

  it("leaves pieces shorter than 6 characters, pieces inside words, and a text that is only a piece", () => {
    expect(scrub(`tail ${secret.slice(-5)} end`)).toBe(`tail ${secret.slice(-5)} end`);
    expect(scrub(`x${secret.slice(-9)} end`)).toBe(`x${secret.slice(-9)} end`);
    expect(scrub(`${secret.slice(0, 8)}x`)).toBe(`${secret.slice(0, 8)}x`);
    expect(scrub(secret.slice(0, 8))).toBe(secret.slice(0, 8));
  });

  it("hides a secret written JSON-escaped", () => {
    const quoted = 'pa"ss\\word\nline2';
    const escaped = JSON.stringify(quoted);
    expect(createSecretScrubber([quoted])(`printed ${escaped} instead`)).toBe(`printed "${REDACTED}" instead`);
  });

  it("returns text unchanged when there is no secret", () => {
    expect(createSecretScrubber([])("anything")).toBe("anything");
  });
});

describe("createRedactor: mayRedact (the log writes a snapshot as it is only when nothing would change)", () => {
  const redactor = createRedactor(DEFAULT_REDACT_KEYS);
  const secret = "tok-9f8e7d6c5b4a";
  /** mayRedact on data as the log holds it, with the verdict checked against a real redaction. */
  const verdict = (data: unknown, secrets: string[] = [secret]) => {
    const json = JSON.stringify(data);
    const changes = JSON.stringify(redactor.redact(JSON.parse(json), secrets)) !== json;
    const may = redactor.mayRedact(JSON.parse(json), json, secrets);
    // The one promise: never "nothing would change" when something would.
    if (changes) expect(may).toBe(true);
    return may;
  };

  it("says nothing would change for data with no secret, no piece and no secret-looking key", () => {
    expect(verdict({ message: "hello", items: [1, { max_tokens: 5 }] })).toBe(false);
    expect(verdict({ message: secret }, [])).toBe(false);
  });

  it("says something may change for a secret-looking key at any depth, even over an empty object", () => {
    expect(verdict({ a: [{ b: { password: {} } }] })).toBe(true);
    expect(verdict({ auth: "x" })).toBe(true);
  });

  it("says something may change for a secret or a piece of one anywhere, in values, keys, escaped or as a number", () => {
    expect(verdict({ text: `key ${secret}` })).toBe(true);
    expect(verdict({ [`k ${secret.slice(0, 8)}`]: 1 })).toBe(true);
    expect(verdict({ stderr: `${secret.slice(-7)} exit` })).toBe(true);
    expect(verdict({ stdout: JSON.stringify({ quoted: 'pa"ss\\word' }) }, ['pa"ss\\word'])).toBe(true);
    expect(verdict({ pin: 4242 }, ["4242"])).toBe(true);
  });

  it("gives no verdict of safety for a secret with a surrogate", () => {
    expect(verdict({ message: "hello" }, ["key-😀-9f8e7d"])).toBe(true);
  });
});
