/**
 * The OAuth 2.1 resource server's check of a bearer JWT: the issuer's JWKS is found from its
 * metadata (RFC 8414 `/.well-known/oauth-authorization-server`, else OpenID Connect's
 * `/.well-known/openid-configuration`), then `jose` checks the signature, `iss`, `aud`, `exp` and
 * `nbf`. The token's scopes (`scope`, or `scp`) become the principal's tier and tool scopes.
 */
import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload } from "jose";
import { OPERATOR_SCOPE, type Principal, type Tier } from "./principal.js";

export interface OAuthSettings {
  /** The authorization server's issuer URL, exactly as its tokens' `iss`. */
  issuer: string;
  /** The `aud` a token must name. */
  audience: string;
}

/** A token's scopes that give a tier, most first. */
export const TIER_SCOPES: ReadonlyArray<[string, Tier]> = [
  ["tools:destructive", "destructive"],
  ["tools:write", "write"],
  ["tools:read", "read"],
];
/** A scope `tool:<pattern>` limits the tools the token reaches (names, servers, patterns with `*`). */
export const TOOL_SCOPE_PREFIX = "tool:";

export type JwtVerdict = { ok: true; principal: Principal } | { ok: false; status: 401 | 403 | 503; error: "invalid_token" | "insufficient_scope" | "temporarily_unavailable"; message: string };

export interface JwtVerifier {
  readonly settings: OAuthSettings;
  verify(token: string): Promise<JwtVerdict>;
}

/** RFC 8414's metadata addresses for an issuer: the well-known segment goes before the issuer's path. */
function metadataUrls(issuer: string): string[] {
  const url = new URL(issuer);
  const tail = url.pathname === "/" ? "" : url.pathname.replace(/\/$/, "");
  return [`${url.origin}/.well-known/oauth-authorization-server${tail}`, `${url.origin}${tail}/.well-known/openid-configuration`];
}

async function discoverJwksUri(issuer: string): Promise<string> {
  const problems: string[] = [];
  for (const address of metadataUrls(issuer)) {
    try {
      const response = await fetch(address, { headers: { accept: "application/json" }, signal: AbortSignal.timeout(10_000) });
      if (!response.ok) {
        problems.push(`${address}: HTTP ${response.status}`);
        continue;
      }
      const metadata = (await response.json()) as { issuer?: unknown; jwks_uri?: unknown };
      if (metadata.issuer !== issuer) throw new Error(`${address} names the issuer ${JSON.stringify(metadata.issuer)}, not ${JSON.stringify(issuer)}`);
      if (typeof metadata.jwks_uri !== "string") throw new Error(`${address} has no jwks_uri`);
      return metadata.jwks_uri;
    } catch (error) {
      problems.push((error as Error).message);
    }
  }
  throw new Error(`Cannot find the JWKS of ${issuer}: ${problems.join("; ")}`);
}

function scopesOf(payload: JWTPayload): string[] {
  const written = payload.scope ?? payload.scp;
  if (typeof written === "string") return written.split(" ").filter(Boolean);
  return Array.isArray(written) ? written.filter((scope): scope is string => typeof scope === "string") : [];
}

/** Why jose refused a token, in words a client's developer can act on. */
function refusalOf(error: unknown): string {
  if (error instanceof errors.JWTExpired) return "the token has expired";
  if (error instanceof errors.JWTClaimValidationFailed) return `the token's "${error.claim}" claim is not accepted (${error.reason})`;
  if (error instanceof errors.JWSSignatureVerificationFailed || error instanceof errors.JWKSNoMatchingKey) return "the token is not signed by a key of the issuer";
  return `the token is not a valid JWT (${(error as Error).message})`;
}

/**
 * @example
 * const verifier = createJwtVerifier({ issuer: "https://auth.example.com", audience: "https://tools.example.com/mcp" });
 * const verdict = await verifier.verify(bearer);
 */
export function createJwtVerifier(settings: OAuthSettings): JwtVerifier {
  let keys: Promise<ReturnType<typeof createRemoteJWKSet>> | undefined;
  const keySet = () => {
    keys ??= discoverJwksUri(settings.issuer).then((uri) => createRemoteJWKSet(new URL(uri)));
    // A failed discovery is tried again on the next token, not remembered.
    keys.catch(() => (keys = undefined));
    return keys;
  };
  return {
    settings,
    async verify(token) {
      let jwks: ReturnType<typeof createRemoteJWKSet>;
      try {
        jwks = await keySet();
      } catch (error) {
        return { ok: false, status: 503, error: "temporarily_unavailable", message: (error as Error).message };
      }
      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(token, jwks, { issuer: settings.issuer, audience: settings.audience, requiredClaims: ["exp", "sub"] }));
      } catch (error) {
        if (error instanceof errors.JWKSTimeout) return { ok: false, status: 503, error: "temporarily_unavailable", message: "the issuer's JWKS did not answer in time" };
        return { ok: false, status: 401, error: "invalid_token", message: refusalOf(error) };
      }
      const scopes = scopesOf(payload);
      const tier = TIER_SCOPES.find(([scope]) => scopes.includes(scope))?.[1];
      const operator = scopes.includes(OPERATOR_SCOPE);
      if (tier === undefined && !operator) return { ok: false, status: 403, error: "insufficient_scope", message: `the token has none of the scopes ${TIER_SCOPES.map(([scope]) => scope).join(", ")}` };
      const toolScopes = scopes.filter((scope) => scope.startsWith(TOOL_SCOPE_PREFIX)).map((scope) => scope.slice(TOOL_SCOPE_PREFIX.length));
      // An operator's token without a tools scope reaches no tool: its one scope names none.
      if (tier === undefined) return { ok: true, principal: { id: payload.sub!, kind: "jwt", scopes: [OPERATOR_SCOPE], tier: "read", operator: true } };
      return { ok: true, principal: { id: payload.sub!, kind: "jwt", scopes: toolScopes, tier, ...(operator ? { operator: true } : {}) } };
    },
  };
}
