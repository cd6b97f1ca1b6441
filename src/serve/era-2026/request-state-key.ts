/**
 * The key that seals the `requestState` of a 2026-07-28 `inputRequired` result (MRTR). The state
 * travels with the client, so the continuation may reach any replica: every replica needs the same
 * key, and a client must not be able to forge or alter the state. The key comes from the
 * `requestStateKey` option or the `TOOLEXEC_REQUEST_STATE_KEY` environment variable; without
 * either, a random key of this process (enough for one process, not for replicas). Checked when
 * serving starts; the SDK's codec is built on the first 2026 request (the v2 packages load then).
 */
import { randomBytes } from "node:crypto";
import { ToolexecError } from "../../index.js";

/** The environment variable `toolexec serve` reads the shared key from. */
export const REQUEST_STATE_KEY_ENV = "TOOLEXEC_REQUEST_STATE_KEY";
/** The HMAC-SHA256 key's least length: 32 bytes (256 bits), as the SDK's codec requires. */
export const MIN_REQUEST_STATE_KEY_BYTES = 32;
/** How long a question's state may wait for its answer: the longest a `request_human_input` call may run. */
export const REQUEST_STATE_TTL_SECONDS = 24 * 60 * 60;

/**
 * The key to seal with; throws `INVALID_OPTIONS` for one shorter than 32 bytes, naming where it came from.
 *
 * @example
 * const key = resolveRequestStateKey(options.requestStateKey);
 */
export function resolveRequestStateKey(key: string | Uint8Array | undefined): string | Uint8Array {
  const fromEnvironment = process.env[REQUEST_STATE_KEY_ENV];
  const chosen = key ?? (fromEnvironment || randomBytes(MIN_REQUEST_STATE_KEY_BYTES));
  const length = typeof chosen === "string" ? Buffer.byteLength(chosen) : chosen.byteLength;
  if (length < MIN_REQUEST_STATE_KEY_BYTES) {
    const where = key === undefined ? REQUEST_STATE_KEY_ENV : "requestStateKey";
    throw new ToolexecError("INVALID_OPTIONS", `Expected ${where} to be at least ${MIN_REQUEST_STATE_KEY_BYTES} bytes (it keys HMAC-SHA256), got ${length}; generate one with: openssl rand -base64 32`);
  }
  return chosen;
}
