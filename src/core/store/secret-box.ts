/**
 * Secrets at rest in a shared store (OAuth tokens): AES-256-GCM with a key derived from
 * `TOOLEXEC_STORE_KEY`, so a Redis dump or a stolen replica volume shows no token. A sealed value
 * is `v1.<iv>.<tag>.<ciphertext>` (base64url); tampering or the wrong key fails the open.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { ToolexecError } from "../errors/toolexec-error.js";

/** The environment variable holding the store's secret key. */
export const STORE_KEY_VARIABLE = "TOOLEXEC_STORE_KEY";
/** The shortest key accepted: 32 characters (e.g. `openssl rand -base64 32` gives 44). */
export const MIN_STORE_KEY_LENGTH = 32;

export interface SecretBox {
  /** Encrypt `plain` (a fresh IV each time). */
  seal(plain: string): string;
  /** Decrypt a sealed value; `AUTH_FAILED` when it was altered or sealed with another key. */
  open(sealed: string): string;
}

/**
 * A box keyed by `TOOLEXEC_STORE_KEY` of `environment`; a missing or short key is a clear
 * `CONFIG_MISSING` / `CONFIG_INVALID`, raised here (at start), not at the first token.
 *
 * @example
 * const box = createSecretBox({ TOOLEXEC_STORE_KEY: "k".repeat(32) });
 * box.open(box.seal("token")); // "token"
 */
export function createSecretBox(environment: Record<string, string | undefined> = process.env): SecretBox {
  const secret = environment[STORE_KEY_VARIABLE];
  if (secret === undefined || secret === "") {
    throw new ToolexecError("CONFIG_MISSING", `${STORE_KEY_VARIABLE} is not set: a shared store keeps OAuth tokens encrypted with it. Set it to the same random value (at least ${MIN_STORE_KEY_LENGTH} characters, e.g. \`openssl rand -base64 32\`) on every replica`);
  }
  if (secret.length < MIN_STORE_KEY_LENGTH) {
    throw new ToolexecError("CONFIG_INVALID", `${STORE_KEY_VARIABLE} has ${secret.length} characters; use at least ${MIN_STORE_KEY_LENGTH} (e.g. \`openssl rand -base64 32\`)`);
  }
  const key = Buffer.from(hkdfSync("sha256", secret, "toolexec-store", "toolexec secret box v1", 32));
  return {
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
      return ["v1", iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), body.toString("base64url")].join(".");
    },
    open(sealed) {
      const [version, iv, tag, body] = sealed.split(".");
      if (version !== "v1" || iv === undefined || tag === undefined || body === undefined) throw new ToolexecError("AUTH_FAILED", "A sealed store value is malformed (expected v1.<iv>.<tag>.<data>)");
      try {
        const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
        decipher.setAuthTag(Buffer.from(tag, "base64url"));
        return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
      } catch (error) {
        throw new ToolexecError("AUTH_FAILED", `A sealed store value cannot be opened: it was altered, or sealed with another ${STORE_KEY_VARIABLE}`, { cause: error });
      }
    },
  };
}
