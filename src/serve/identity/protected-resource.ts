/**
 * RFC 9728 protected-resource metadata: how an MCP client that got a 401 finds the authorization
 * server to sign in with. Served at `/.well-known/oauth-protected-resource` and at that path with the
 * endpoint's path appended (`…/oauth-protected-resource/mcp`, RFC 9728 §3.1), and named in every
 * 401's `WWW-Authenticate: Bearer resource_metadata="…"`.
 */
import type { IncomingMessage } from "node:http";
import { TIER_SCOPES, type OAuthSettings } from "./jwt-verifier.js";

export const PROTECTED_RESOURCE_PATH = "/.well-known/oauth-protected-resource";

/** Whether `pathname` asks for the metadata of the endpoint at `endpoint`. */
export const isProtectedResourcePath = (pathname: string, endpoint: string): boolean => pathname === PROTECTED_RESOURCE_PATH || pathname === PROTECTED_RESOURCE_PATH + endpoint;

/** The served origin as the client reached it (its Host header). */
const originOf = (request: IncomingMessage) => `http://${request.headers.host ?? "localhost"}`;

/** Where the metadata of the endpoint is, as a client reached it: the URL 401s name. */
export const resourceMetadataUrl = (request: IncomingMessage, endpoint: string): string => `${originOf(request)}${PROTECTED_RESOURCE_PATH}${endpoint}`;

/**
 * The metadata document. `resource` is the audience when that is a URL (what tokens are issued
 * for), else the endpoint's URL as reached.
 */
export function protectedResourceMetadata(request: IncomingMessage, endpoint: string, settings: OAuthSettings): Record<string, unknown> {
  let resource = `${originOf(request)}${endpoint}`;
  try {
    resource = new URL(settings.audience).href;
  } catch {
    // Not a URL: the endpoint's own address names the resource.
  }
  return {
    resource,
    authorization_servers: [settings.issuer],
    bearer_methods_supported: ["header"],
    scopes_supported: TIER_SCOPES.map(([scope]) => scope),
    resource_name: "toolexec",
  };
}
