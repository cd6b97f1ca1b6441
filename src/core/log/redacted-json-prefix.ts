/**
 * The start of a value's redacted JSON, produced without redacting or serializing the rest: a log
 * line keeps only a preview of a large value, and walking all of a 250,000-key answer to cut its
 * first 64 KiB held the host's event loop for seconds.
 */
import { REDACTED } from "./scrub-secrets.js";

export interface RedactionRules {
  /** Hides known secret strings inside text. */
  scrub(text: string): string;
  /** Secrets that are hidden when a whole number or bigint equals them. */
  exactSecrets: ReadonlySet<string>;
  isSecretKey(key: string): boolean;
}

const REDACTED_JSON = JSON.stringify(REDACTED);

/**
 * The first `maxChars` characters (or more, never fewer unless it is shorter) of
 * `JSON.stringify(redact(value))`, the same text the full redacted copy would give.
 */
export function redactedJsonPrefix(value: unknown, rules: RedactionRules, maxChars: number): string {
  const parts: string[] = [];
  let length = 0;
  const ancestors = new Set<object>();
  const push = (text: string) => void (parts.push(text), (length += text.length));
  // Returns false when `current` writes nothing (in an object: the key is left out, as JSON.stringify does).
  const write = (current: unknown, applyToJSON = true): boolean => {
    if (typeof current === "string") return push(JSON.stringify(rules.scrub(current))), true;
    if (typeof current === "number" || typeof current === "bigint") {
      const text = String(current);
      return push(rules.exactSecrets.has(text) ? REDACTED_JSON : JSON.stringify(typeof current === "bigint" ? text : current)), true;
    }
    if (typeof current === "boolean" || current === null) return push(String(current)), true;
    if (typeof current !== "object") return false;
    if (ancestors.has(current)) return push('"[Circular]"'), true;
    const toJSON = (current as { toJSON?: unknown }).toJSON;
    if (applyToJSON && typeof toJSON === "function") return write(toJSON.call(current), false);
    ancestors.add(current);
    try {
      if (Array.isArray(current)) writeArray(current);
      else writeObject(current as Record<string, unknown>);
    } finally {
      ancestors.delete(current);
    }
    return true;
  };
  const writeArray = (items: readonly unknown[]) => {
    push("[");
    for (let index = 0; index < items.length && length < maxChars; index++) {
      if (index > 0) push(",");
      if (!write(items[index])) push("null");
    }
    push("]");
  };
  const writeObject = (object: Record<string, unknown>) => {
    push("{");
    let first = true;
    for (const key in object) {
      if (length >= maxChars) break;
      if (!Object.prototype.hasOwnProperty.call(object, key)) continue;
      const inner = object[key];
      const keyText = `${first ? "" : ","}${JSON.stringify(rules.scrub(key))}:`;
      const secret = rules.isSecretKey(key) && inner !== null && inner !== undefined && inner !== "";
      const mark = parts.length;
      push(keyText);
      if (secret) push(REDACTED_JSON);
      else if (!write(inner)) {
        parts.length = mark;
        length -= keyText.length;
        continue;
      }
      first = false;
    }
    push("}");
  };
  write(value);
  return parts.join("");
}
