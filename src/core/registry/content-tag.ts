/** Entity tags for optimistic concurrency: a hash of a file's bytes, or of one entry's JSON. */
import { createHash } from "node:crypto";

/**
 * A short, stable tag of `content` (SHA-256, base64url, 22 characters: 132 bits).
 *
 * @example
 * contentTag(await readFile("tools.json")); // "x3JrA0bV9pQz7k2mWcYt1g"
 */
export function contentTag(content: string | Uint8Array): string {
  return createHash("sha256").update(content).digest("base64url").slice(0, 22);
}

/** The tag of one JSON value, independent of how the file lays it out. */
export function valueTag(value: unknown): string {
  return contentTag(JSON.stringify(value));
}
