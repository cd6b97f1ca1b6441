/**
 * Whether any active API key exists — asked on every request without a credential, since one key
 * makes a credential required — without listing the store each time. The answer is kept until a
 * key changes: the store announces every write of a key record (another replica's or `toolexec
 * keys` in another process included) and a `resync` after an outage, and either drops the answer.
 * Announcements of a watched folder can be late or, for a folder made after the watch began,
 * missed: the answer is also dropped after `maxAgeMs`, so a new first key is enforced within it.
 */
import { anyActiveKey, API_KEYS_PREFIX, type KeyStorage } from "./api-keys.js";

/** How long an answer stands without an announcement (a store that announces changes). */
export const KEY_PRESENCE_MAX_AGE_MS = 5_000;
/** The same for a store that cannot announce: a listing at most this often. */
const UNANNOUNCED_MAX_AGE_MS = 1_000;

export interface KeyPresence {
  /**
   * Whether an active key exists. With the store down, its last answer stands (no key can be made
   * meanwhile: writes fail too); down since the start there is none: undefined.
   */
  anyActive(): Promise<boolean | undefined>;
  /** Stop following the store's announcements. */
  close(): void;
}

/**
 * @example
 * const presence = createKeyPresence(store);
 * if (await presence.anyActive()) refuse(401);
 */
export function createKeyPresence(storage: KeyStorage, now: () => number = Date.now): KeyPresence {
  let known: { any: boolean; at: number } | undefined;
  let lastAnswer: boolean | undefined;
  /** Bumped by every announcement: a listing that began before one does not set the answer. */
  let generation = 0;
  const unsubscribe = storage.subscribe?.(API_KEYS_PREFIX, () => {
    generation++;
    known = undefined;
  });
  const maxAgeMs = unsubscribe === undefined ? UNANNOUNCED_MAX_AGE_MS : KEY_PRESENCE_MAX_AGE_MS;
  return {
    async anyActive() {
      if (known !== undefined && now() - known.at < maxAgeMs) return known.any;
      const started = generation;
      try {
        const any = await anyActiveKey(storage);
        lastAnswer = any;
        if (started === generation) known = { any, at: now() };
        return any;
      } catch (error) {
        if ((error as { code?: string }).code !== "SERVICE_UNAVAILABLE") throw error;
        return lastAnswer;
      }
    },
    close() {
      unsubscribe?.();
    },
  };
}
