/**
 * Who a request to a served MCP endpoint is: the static token, a scoped API key or an OAuth JWT,
 * each a principal; with none of them configured and no key in the store, the loopback default
 * (`local`). Once a key exists or an issuer is set, every request needs a credential, on loopback
 * too. Refusals are 401 with `WWW-Authenticate: Bearer …` (RFC 6750), naming the protected-resource
 * metadata when an issuer is set, or 403 for a token without the scopes needed.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { checkApiKey, looksLikeApiKey, type KeyStorage } from "./api-keys.js";
import { createKeyPresence } from "./key-presence.js";
import { createJwtVerifier, type OAuthSettings } from "./jwt-verifier.js";
import { LOCAL_PRINCIPAL, type Principal } from "./principal.js";

export interface AuthenticatorOptions {
  /** The static bearer token (`serve --token-env`): its holder is the principal `token`. */
  token?: string;
  /** Where API keys are kept; without it, keys are off. */
  keys?: KeyStorage;
  /** Accept JWTs from this issuer for this audience. */
  oauth?: OAuthSettings;
}

export type AuthVerdict = { ok: true; principal: Principal } | { ok: false; status: 401 | 403 | 503; message: string; headers: Record<string, string> };

export interface Authenticator {
  readonly oauth: OAuthSettings | undefined;
  /** `metadataUrl`: the protected-resource metadata's address as this client reaches it. */
  authenticate(request: IncomingMessage, metadataUrl: string): Promise<AuthVerdict>;
  /** Stop following the key store. */
  close(): void;
}

const digest = (text: string) => createHash("sha256").update(text).digest();
const quoted = (text: string) => `"${text.replace(/["\\]/g, "'")}"`;

/** The bearer credential of a request, or undefined. RFC 7235: the scheme is case-insensitive. */
function bearerOf(request: IncomingMessage): string | undefined {
  const header = request.headers.authorization ?? "";
  return /^bearer +/i.test(header) ? header.replace(/^bearer +/i, "") : undefined;
}

/**
 * @example
 * const authenticator = createAuthenticator({ keys: store, oauth: { issuer, audience } });
 * const verdict = await authenticator.authenticate(request, metadataUrl);
 */
export function createAuthenticator(options: AuthenticatorOptions): Authenticator {
  const verifier = options.oauth ? createJwtVerifier(options.oauth) : undefined;
  /**
   * Whether a credential is needed: kept between requests (key-presence.ts). With a store that is
   * down (Redis restarting), the last answer it gave stands: no key can be created meanwhile (writes
   * fail), so "none" stays true, and local tools keep being served. Down since start, there is no
   * answer to stand by: undefined (503).
   */
  const presence = options.keys === undefined ? undefined : createKeyPresence(options.keys);
  const credentialNeeded = async (): Promise<boolean | undefined> => {
    if (options.token !== undefined || verifier !== undefined) return true;
    return presence === undefined ? false : presence.anyActive();
  };
  const refuse = (status: 401 | 403 | 503, message: string, metadataUrl: string, error?: string): AuthVerdict => {
    const parts: string[] = [];
    if (verifier) parts.push(`resource_metadata=${quoted(metadataUrl)}`);
    if (error) parts.push(`error=${quoted(error)}`, `error_description=${quoted(message)}`);
    if (error === "insufficient_scope") parts.push(`scope="tools:read"`);
    return { ok: false, status, message, headers: status === 503 ? { "retry-after": "5" } : { "www-authenticate": parts.length === 0 ? "Bearer" : `Bearer ${parts.join(", ")}` } };
  };
  return {
    oauth: options.oauth,
    close: () => presence?.close(),
    async authenticate(request, metadataUrl) {
      const bearer = bearerOf(request);
      if (bearer === undefined) {
        const needed = await credentialNeeded();
        if (needed === undefined) return refuse(503, "The store that holds API keys is unavailable, so who may call cannot be checked; try again shortly", metadataUrl);
        return needed ? refuse(401, "A bearer credential is required (Authorization: Bearer <key or token>)", metadataUrl) : { ok: true, principal: LOCAL_PRINCIPAL };
      }
      // Digests of equal length: the compare leaks nothing about the token's length.
      if (options.token !== undefined && timingSafeEqual(digest(bearer), digest(options.token))) return { ok: true, principal: { id: "token", kind: "token", scopes: [], tier: "destructive", operator: true } };
      if (options.keys !== undefined && looksLikeApiKey(bearer)) {
        // A key cannot be checked while its store is down: 503 (try again), never a 401 for a key that may be good.
        const checked = await checkApiKey(options.keys, bearer).catch((error: { code?: string; message?: string }) => {
          if (error.code === "SERVICE_UNAVAILABLE") return { ok: false as const, unavailable: true, message: error.message ?? "The key store is unavailable" };
          throw error;
        });
        if (checked.ok) return checked;
        return "unavailable" in checked ? refuse(503, checked.message, metadataUrl) : refuse(401, checked.message, metadataUrl, "invalid_token");
      }
      if (verifier) {
        const verdict = await verifier.verify(bearer);
        return verdict.ok ? verdict : refuse(verdict.status, `Bearer token refused: ${verdict.message}`, metadataUrl, verdict.error);
      }
      const needed = options.token !== undefined || (await credentialNeeded());
      if (needed === undefined) return refuse(503, "The store that holds API keys is unavailable, so who may call cannot be checked; try again shortly", metadataUrl);
      return needed ? refuse(401, "Missing or wrong bearer token", metadataUrl) : { ok: true, principal: LOCAL_PRINCIPAL };
    },
  };
}
