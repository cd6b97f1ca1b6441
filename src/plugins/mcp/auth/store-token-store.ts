/**
 * OAuth tokens in a shared store (Redis), so a login made through one replica serves them all:
 * one sealed record per server under `.toolexec/oauth/`, encrypted with `TOOLEXEC_STORE_KEY`
 * (AES-256-GCM). The key is read at the first use: without it, logins fail with a clear
 * `CONFIG_MISSING` while everything else keeps working.
 */
import { createHash } from "node:crypto";
import { createSecretBox, type SecretBox } from "../../../core/store/secret-box.js";
import type { Store } from "../../../core/store/store.js";
import type { OAuthTokenStore, StoredAuthorization } from "./token-store.js";

/** Where the sealed records live in the store. */
export const OAUTH_STORE_PREFIX = ".toolexec/oauth/";

/**
 * @example
 * const tokenStore = createStoreTokenStore(executorStore); // needs TOOLEXEC_STORE_KEY at the first login
 */
export function createStoreTokenStore(store: Store, environment: Record<string, string | undefined> = process.env): OAuthTokenStore {
  let box: SecretBox | undefined;
  const sealer = () => (box ??= createSecretBox(environment));
  const keyOf = (key: string) => `${OAUTH_STORE_PREFIX}${createHash("sha256").update(key).digest("hex").slice(0, 32)}`;
  return {
    async load(key) {
      const sealed = await store.get(keyOf(key));
      if (sealed === undefined) return undefined;
      try {
        return JSON.parse(sealer().open(sealed)) as StoredAuthorization;
      } catch (error) {
        // Sealed with another key or damaged: a logged-out server, as a damaged file is; a missing key is the host's to fix.
        if ((error as { code?: string }).code === "CONFIG_MISSING" || (error as { code?: string }).code === "CONFIG_INVALID") throw error;
        return undefined;
      }
    },
    async save(key, value) {
      await store.set(keyOf(key), sealer().seal(JSON.stringify(value)));
    },
    async remove(key) {
      await store.delete(keyOf(key));
    },
  };
}
