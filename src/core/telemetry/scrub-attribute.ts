/**
 * Arguments and results as span attributes (opt-in) leave the process as the log's do: secrets
 * redacted by the same key patterns and host secrets, and cut to the log's value size.
 */
import { createRedactor } from "../log/redact.js";

/** What is appended to a value cut at `maxBytes`. */
export const TRUNCATED_MARK = "…[truncated]";

/**
 * @example
 * const scrub = createAttributeScrubber(DEFAULT_REDACT_KEYS, 65536, () => []);
 * scrub({ apiKey: "s3cret", city: "Oslo" }); // '{"apiKey":"[REDACTED]","city":"Oslo"}'
 */
export function createAttributeScrubber(redactKeys: readonly RegExp[], maxBytes: number, secrets: () => readonly string[]): (value: unknown) => string {
  const redactor = createRedactor(redactKeys);
  return (value) => {
    const text = JSON.stringify(redactor.redact(value, secrets())) ?? "null";
    return text.length > maxBytes ? text.slice(0, maxBytes) + TRUNCATED_MARK : text;
  };
}
