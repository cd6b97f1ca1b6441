/**
 * JSON with every object's keys in code-point order: the same text for the same value whatever
 * order a server or an editor wrote it in. Fingerprints hash it; the lock file is written with it,
 * so its diffs show only real changes.
 */
import { createHash } from "node:crypto";

/** A copy of `value` whose objects have sorted keys (`__proto__` stays a plain key). */
export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== "object") return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    Object.defineProperty(sorted, key, { value: sortKeys((value as Record<string, unknown>)[key]), enumerable: true, writable: true, configurable: true });
  }
  return sorted;
}

/**
 * `sha256-<hex>` of the canonical JSON of `value`.
 *
 * @example
 * canonicalHash({ b: 1, a: 2 }) === canonicalHash({ a: 2, b: 1 }); // true
 */
export function canonicalHash(value: unknown): string {
  return `sha256-${createHash("sha256").update(JSON.stringify(sortKeys(value))).digest("hex")}`;
}
