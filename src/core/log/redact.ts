/** Removes secrets from what gets logged: values under secret-looking keys, and known secret strings anywhere. */

export const REDACTED = "[REDACTED]";

/** Keys whose values are never logged, whatever the tool. `token(?!s)` spares `max_tokens`. */
export const DEFAULT_REDACT_KEYS: RegExp[] = [
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

/** Secret strings shorter than this are not searched for inside other text (too many false hits). */
const MIN_SECRET_LENGTH = 3;

export interface Redactor {
  /** A deep copy of `value` with secrets replaced. `secrets` are literal strings to hide. */
  redact(value: unknown, secrets?: readonly string[]): unknown;
}

export function createRedactor(keyPatterns: readonly RegExp[]): Redactor {
  const isSecretKey = (key: string) => keyPatterns.some((pattern) => pattern.test(key));
  return {
    redact(value, secrets = []) {
      const needles = [...new Set(secrets.filter((secret) => secret.length >= MIN_SECRET_LENGTH))].sort((a, b) => b.length - a.length);
      const scrubString = (text: string) => {
        let result = text;
        for (const needle of needles) if (result.includes(needle)) result = result.split(needle).join(REDACTED);
        return result;
      };
      const seen = new WeakSet<object>();
      const walk = (current: unknown): unknown => {
        if (typeof current === "string") return needles.length === 0 ? current : scrubString(current);
        if (current === null || typeof current !== "object") return current;
        if (seen.has(current)) return "[Circular]";
        seen.add(current);
        if (Array.isArray(current)) return current.map(walk);
        const copy: Record<string, unknown> = {};
        for (const [key, inner] of Object.entries(current)) {
          copy[key] = isSecretKey(key) && inner !== null && inner !== undefined && inner !== "" ? REDACTED : walk(inner);
        }
        return copy;
      };
      return walk(value);
    },
  };
}
