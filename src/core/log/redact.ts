/** Removes secrets from what gets logged: values under secret-looking keys, and known secret strings anywhere. */
import { collectSecretValuesInText, redactJsonText } from "./redact-json-text.js";
import { redactedJsonPrefix, type RedactionRules } from "./redacted-json-prefix.js";
import { MIN_SECRET_LENGTH, REDACTED, createSecretScrubber, secretProbes } from "./scrub-secrets.js";

export { REDACTED };

/** Keys whose values are never logged, whatever the tool. `token(?!s)` spares `max_tokens`. */
export const DEFAULT_REDACT_KEYS: readonly RegExp[] = [
  /pass(word|wd|phrase)/i,
  /secret/i,
  /token(?!s)/i,
  /api[-_]?key/i,
  /^auth$|authorization/i,
  /cookie/i,
  /credential/i,
  /private[-_]?key/i,
  /access[-_]?key/i,
  /session[-_]?id/i,
];

export interface Redactor {
  /**
   * A JSON-ready deep copy of `value` with secrets replaced: `toJSON` is applied (dates stay
   * readable), bigints become strings and a circular reference becomes `"[Circular]"`, so the copy
   * always serializes. `secrets` are literal strings to hide.
   */
  redact(value: unknown, secrets?: readonly string[]): unknown;
  /** `redact` with the secrets prepared once, for redacting several values against the same list. */
  prepare(secrets?: readonly string[]): (value: unknown) => unknown;
  /**
   * The strings and numbers found under secret-looking keys anywhere in `value` (at any depth,
   * inside objects and arrays under such a key too): a tool that echoes its `password` argument
   * into stderr, a message or another key must not get it logged there.
   */
  secretValues(value: unknown): string[];
  /**
   * False when redacting `value` (plain JSON data, whose `JSON.stringify` is `json`) with `secrets`
   * provably changes nothing — no secret-looking key at any depth, no secret or piece of one in any
   * string — so `json` can be logged as it is; true when it may.
   */
  mayRedact(value: unknown, json: string, secrets: readonly string[]): boolean;
  /**
   * At least the first `maxChars` characters of `JSON.stringify(redact(value, secrets))` (all of it
   * when shorter), without redacting or serializing the rest.
   */
  redactedPrefix(value: unknown, secrets: readonly string[], maxChars: number): string;
  /** `secretValues` for a value given as its JSON `text`, added to `found`, as steps (see redact-json-text.ts). */
  secretValuesInText(text: string, found: Set<string>): Generator<void, void>;
  /** `redactedPrefix` for a value given as its JSON `text`, as steps (see redact-json-text.ts). */
  redactedText(text: string, secrets: readonly string[], maxChars: number): Generator<void, string>;
}

/** How deep `secretValues` looks; a record deeper than this fails to serialize anyway. */
const MAX_SECRET_SEARCH_DEPTH = 1000;

/** How many keys, of at most how many characters, a redactor remembers the verdict of. */
const MAX_REMEMBERED_KEYS = 1000;
const MAX_REMEMBERED_KEY_LENGTH = 64;

/** `test()` on a /g or /y pattern moves `lastIndex`, which would skip every other matching key. */
const withoutState = (pattern: RegExp) => (pattern.global || pattern.sticky ? new RegExp(pattern.source, pattern.flags.replace(/[gy]/g, "")) : pattern);

/**
 * The patterns as one alternation when they can be (the same flags, no backreference that joining
 * would renumber): a key is then tested once, not once per pattern.
 */
function combinePatterns(patterns: readonly RegExp[]): (key: string) => boolean {
  const flags = patterns[0]?.flags;
  if (patterns.length > 1 && patterns.every((pattern) => pattern.flags === flags && !/\\[1-9k]/.test(pattern.source))) {
    try {
      const combined = new RegExp(patterns.map((pattern) => `(?:${pattern.source})`).join("|"), flags);
      return (key) => combined.test(key);
    } catch {
      // Named groups repeated across patterns: tested one by one below.
    }
  }
  return (key) => patterns.some((pattern) => pattern.test(key));
}

/**
 * Whether a key is secret-looking. Records repeat the same few keys (executionId, message, ...): each
 * short key is tested against the patterns once, not once per record.
 */
function createKeyTest(patterns: readonly RegExp[]): (key: string) => boolean {
  const known = new Map<string, boolean>();
  const matches = combinePatterns(patterns);
  return (key) => {
    let secret = known.get(key);
    if (secret !== undefined) return secret;
    secret = matches(key);
    if (key.length <= MAX_REMEMBERED_KEY_LENGTH) {
      if (known.size >= MAX_REMEMBERED_KEYS) known.clear();
      known.set(key, secret);
    }
    return secret;
  };
}

/**
 * `build` for a secret list, kept and reused while the list's contents stay the same: the list
 * changes only when plugins restart, while every logged call brings it again.
 */
function lastBuiltFor<T>(build: (secrets: readonly string[]) => T): (secrets: readonly string[]) => T {
  let lastKey: string | undefined;
  let last: T;
  return (secrets) => {
    const key = JSON.stringify(secrets);
    if (key !== lastKey) [lastKey, last] = [key, build(secrets)];
    return last;
  };
}

/** The JSON-ready redacted copy of a value (see `Redactor.redact`). */
function createWalker({ scrub, exactSecrets, isSecretKey }: RedactionRules): (value: unknown) => unknown {
  // Only the objects above the current one: the same object reached twice is not a cycle.
  const ancestors = new Set<object>();
  const walk = (current: unknown, applyToJSON = true): unknown => {
    if (typeof current === "string") return scrub(current);
    // A numeric secret (a PIN) can come back as a JSON number; only the whole number is one.
    if (typeof current === "number" || typeof current === "bigint") {
      const text = String(current);
      return exactSecrets.has(text) ? REDACTED : typeof current === "bigint" ? text : current;
    }
    if (current === null || typeof current !== "object") return current;
    if (ancestors.has(current)) return "[Circular]";
    // As JSON.stringify does: one toJSON per value, so a toJSON returning `this` cannot loop.
    const toJSON = (current as { toJSON?: unknown }).toJSON;
    if (applyToJSON && typeof toJSON === "function") return walk(toJSON.call(current), false);
    ancestors.add(current);
    try {
      if (Array.isArray(current)) return current.map((item) => walk(item));
      const copy: Record<string, unknown> = {};
      for (const key in current) {
        if (!Object.prototype.hasOwnProperty.call(current, key)) continue;
        const inner = (current as Record<string, unknown>)[key];
        copy[scrub(key)] = isSecretKey(key) && inner !== null && inner !== undefined && inner !== "" ? REDACTED : walk(inner);
      }
      return copy;
    } finally {
      ancestors.delete(current);
    }
  };
  return (value) => walk(value);
}

/** See `Redactor.secretValues`. */
function collectSecretValues(value: unknown, isSecretKey: (key: string) => boolean): string[] {
  const found = new Set<string>();
  const seen = new Set<object>();
  const collect = (current: unknown, underSecretKey: boolean, depth: number) => {
    if (underSecretKey && (typeof current === "string" || typeof current === "number" || typeof current === "bigint")) found.add(String(current));
    if (current === null || typeof current !== "object" || seen.has(current) || depth > MAX_SECRET_SEARCH_DEPTH) return;
    seen.add(current);
    if (Array.isArray(current)) for (const item of current) collect(item, underSecretKey, depth + 1);
    else {
      for (const key in current) {
        if (Object.prototype.hasOwnProperty.call(current, key)) collect((current as Record<string, unknown>)[key], underSecretKey || isSecretKey(key), depth + 1);
      }
    }
  };
  try {
    collect(value, false, 0);
  } catch {
    // A throwing getter: what was found so far is still hidden, and serializing reports the rest.
  }
  return [...found];
}

/** Whether plain JSON data has a secret-looking key at any depth; data too deep to search counts as having one. */
function hasSecretKey(current: unknown, isSecretKey: (key: string) => boolean, depth = 0): boolean {
  if (current === null || typeof current !== "object") return false;
  if (depth > MAX_SECRET_SEARCH_DEPTH) return true;
  if (Array.isArray(current)) return current.some((item) => hasSecretKey(item, isSecretKey, depth + 1));
  for (const key in current) if (isSecretKey(key) || hasSecretKey((current as Record<string, unknown>)[key], isSecretKey, depth + 1)) return true;
  return false;
}

export function createRedactor(keyPatterns: readonly RegExp[]): Redactor {
  const isSecretKey = createKeyTest(keyPatterns.map(withoutState));
  const rulesFor = lastBuiltFor((secrets): RedactionRules & { walk: (value: unknown) => unknown } => {
    const rules = { scrub: createSecretScrubber(secrets), exactSecrets: new Set(secrets.filter((secret) => secret.length >= MIN_SECRET_LENGTH)), isSecretKey };
    return { ...rules, walk: createWalker(rules) };
  });
  const probesFor = lastBuiltFor(secretProbes);
  const prepare = (secrets: readonly string[] = []) => rulesFor(secrets).walk;
  return {
    redact: (value, secrets) => prepare(secrets)(value),
    prepare,
    secretValues: (value) => collectSecretValues(value, isSecretKey),
    mayRedact(value, json, secrets) {
      const probes = probesFor(secrets);
      return probes === undefined || probes.some((probe) => json.includes(probe)) || hasSecretKey(value, isSecretKey);
    },
    redactedPrefix: (value, secrets, maxChars) => redactedJsonPrefix(value, rulesFor(secrets), maxChars),
    secretValuesInText: (text, found) => collectSecretValuesInText(text, isSecretKey, found),
    redactedText: (text, secrets, maxChars) => redactJsonText(text, rulesFor(secrets), maxChars),
  };
}
