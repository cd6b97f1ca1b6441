/** Which API key made a change, for audit lines, without revealing it. */
import { createHash } from "node:crypto";

/**
 * A short, stable fingerprint of an API key.
 *
 * @example
 * keyFingerprint(process.env.TOOLEXEC_API_KEY!); // "3f9a0c1b77e2"
 */
export function keyFingerprint(apiKey: string): string {
  return createHash("sha256").update(`toolexec-audit:${apiKey}`).digest("hex").slice(0, 12);
}
