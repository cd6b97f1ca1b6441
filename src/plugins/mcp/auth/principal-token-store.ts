/**
 * The tokens of one served principal on a per-user server: the host's token store (files in the
 * user's config folder, or the shared store's sealed records), under a key of its own that names the
 * principal's kind and id. A principal's connection is given only its own view, so it cannot read or
 * overwrite another's record, nor the shared one.
 */
import { ToolexecError } from "../../../core/errors/toolexec-error.js";
import type { OAuthTokenStore } from "./token-store.js";

/** Who a per-user server's tokens belong to: a served principal (`kind` `key`, `jwt`, `token`). */
export interface PrincipalReference {
  kind: string;
  id: string;
}

/** Longest principal id accepted on the command line or by `startServerLogin`. */
const MAX_PRINCIPAL_ID_LENGTH = 256;

/** `key:3f…` or `jwt:alice@example.com`: how logs, hints and the CLI's `--as` spell a principal. */
export const principalLabel = (principal: PrincipalReference) => `${principal.kind}:${principal.id}`;

/**
 * `--as` / `{ principal }`: `<id>` is an API key's id (`toolexec keys list`), `jwt:<sub>` a JWT
 * caller's subject, `key:<id>` and `token:token` spelled out.
 *
 * @example
 * parsePrincipal("jwt:alice"); // { kind: "jwt", id: "alice" }
 * parsePrincipal("9f86d081884c7d65"); // { kind: "key", id: "9f86d081884c7d65" }
 */
export function parsePrincipal(text: string): PrincipalReference {
  const match = /^(key|jwt|token):(.*)$/s.exec(text);
  const principal = match ? { kind: match[1]!, id: match[2]! } : { kind: "key", id: text };
  const control = [...principal.id].some((character) => character.charCodeAt(0) < 0x20 || character.charCodeAt(0) === 0x7f);
  if (principal.id === "" || principal.id.length > MAX_PRINCIPAL_ID_LENGTH || control) {
    throw new ToolexecError("INVALID_INPUT", `Expected a principal: an API key's id, or jwt:<subject> (at most ${MAX_PRINCIPAL_ID_LENGTH} characters, no control characters), got ${JSON.stringify(text)}`);
  }
  return principal;
}

/**
 * @example
 * const alices = principalTokenStore(store, { kind: "jwt", id: "alice" });
 * await alices.load(key); // the record saved under `key` for alice only
 */
export function principalTokenStore(store: OAuthTokenStore, principal: PrincipalReference): OAuthTokenStore {
  // A newline cannot occur in a server URL, so no principal's key can equal the shared record's.
  const keyOf = (key: string) => `${key}\nprincipal\n${principal.kind}\n${principal.id}`;
  return {
    load: (key) => store.load(keyOf(key)),
    save: (key, value) => store.save(keyOf(key), value),
    remove: (key) => store.remove(keyOf(key)),
  };
}
