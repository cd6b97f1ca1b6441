/** Keeps log lines small: a value bigger than the bound is logged as a preview of its first bytes. */

/** Bound one logged value: anything over `maxBytes` as JSON becomes a preview of its first `maxBytes` bytes. */
function boundValue(value: unknown, maxBytes: number): unknown {
  if (value === undefined || value === null || typeof value === "number" || typeof value === "boolean") return value;
  const text = typeof value === "string" ? value : JSON.stringify(value);
  if (text === undefined) return value;
  const bytes = Buffer.from(text);
  if (bytes.length <= maxBytes) return value;
  return { truncated: true, bytes: bytes.length, preview: previewOf(bytes, maxBytes) };
}

/** The first `maxBytes` of `bytes` as text. */
export function previewOf(bytes: Buffer, maxBytes: number): string {
  // A cut inside a multi-byte character decodes to U+FFFD; drop it rather than log a broken character.
  return bytes.subarray(0, maxBytes).toString("utf8").replace(/\uFFFD$/, "");
}

/** The fields bounded as a whole. */
export const BOUNDED_FIELDS: readonly string[] = ["arguments", "value"];

/** Bound the fields that can be large: arguments, value and an error's details. */
export function boundRecord(record: Record<string, unknown>, maxBytes: number): Record<string, unknown> {
  const bounded = { ...record };
  for (const key of BOUNDED_FIELDS) if (key in bounded) bounded[key] = boundValue(bounded[key], maxBytes);
  const error = bounded.error;
  if (error !== null && typeof error === "object" && "details" in error) bounded.error = { ...error, details: boundValue(error.details, maxBytes) };
  return bounded;
}
