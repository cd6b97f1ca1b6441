/**
 * Turns an http / sse entry's `oauth` (or Cursor's `auth`) into resolved OAuth settings: variables
 * expanded, scopes joined, the grant's required keys checked, secrets collected for redaction.
 */
import type { JsonPath } from "../../../core/json/parse-json-document.js";
import type { McpServerEntryFile } from "./mcp-server-schema.js";

/** The loopback port of the redirect URI when the entry gives no `callbackPort`. */
export const DEFAULT_OAUTH_CALLBACK_PORT = 33418;

/** How toolexec authorizes with one server (docs/auth.md). */
export interface McpOAuthSettings {
  grant: "authorization_code" | "client_credentials";
  clientId?: string;
  clientSecret?: string;
  clientMetadataUrl?: string;
  /** Space-separated scopes asked for when the server names none. */
  scope?: string;
  /** The redirect URI is `http://127.0.0.1:<callbackPort>/callback`. */
  callbackPort: number;
  privateKey?: string;
  signingAlgorithm?: string;
  /** client_credentials: the only authorization server the credentials go to. */
  issuer?: string;
  tokenEndpointAuthMethod?: "client_secret_basic" | "client_secret_post" | "none" | "private_key_jwt";
  /** Each principal logs in on its own; its calls carry only its token (docs/identity.md). */
  perUser?: boolean;
  /** A per-user server's calls without a principal: refused (default) or sent with the shared login. */
  anonymous?: "refuse" | "shared";
}

export interface OAuthResolveHelpers {
  expand(text: string, at: JsonPath): string;
  problem(path: JsonPath, message: string): void;
  secret(value: string): void;
}

/**
 * `false` when the server is never authorized: `"oauth": false`, or an `Authorization` header
 * already set (the header is the credential). Otherwise the settings, defaults applied.
 *
 * @example
 * resolveMcpOAuth({ url, oauth: { clientId: "abc", scopes: ["read"] } }, {}, helpers);
 * // { grant: "authorization_code", clientId: "abc", scope: "read", callbackPort: 33418 }
 */
export function resolveMcpOAuth(entry: McpServerEntryFile, headers: Record<string, string>, helpers: OAuthResolveHelpers): McpOAuthSettings | false {
  const { expand, problem, secret } = helpers;
  if (entry.oauth !== undefined && entry.auth !== undefined) problem(["auth"], 'Give either "oauth" or "auth" (Cursor\'s spelling), not both');
  if (entry.oauth === false) return false;
  const written = entry.oauth ?? (entry.auth && { clientId: entry.auth.CLIENT_ID, clientSecret: entry.auth.CLIENT_SECRET, scopes: entry.auth.scopes });
  const key = entry.oauth === undefined ? "auth" : "oauth";
  const at = (name: string): JsonPath => [key, entry.oauth === undefined ? ({ clientId: "CLIENT_ID", clientSecret: "CLIENT_SECRET" } as Record<string, string>)[name] ?? name : name];
  if (written === undefined && Object.keys(headers).some((name) => name.toLowerCase() === "authorization")) return false;
  const settings: McpOAuthSettings = { grant: written?.grant ?? "authorization_code", callbackPort: written?.callbackPort ?? DEFAULT_OAUTH_CALLBACK_PORT };
  if (!written) return settings;
  const text = (name: "clientId" | "clientSecret" | "clientMetadataUrl" | "privateKey" | "signingAlgorithm" | "issuer", isSecret = false) => {
    const value = written[name];
    if (value === undefined) return;
    settings[name] = expand(value, at(name));
    if (isSecret) secret(settings[name]!);
  };
  text("clientId");
  text("clientSecret", true);
  text("clientMetadataUrl");
  text("privateKey", true);
  text("signingAlgorithm");
  text("issuer");
  if (written.scopes !== undefined) {
    settings.scope = (Array.isArray(written.scopes) ? written.scopes.map((scope, index) => expand(scope, [...at("scopes"), index])) : [expand(written.scopes, at("scopes"))]).join(" ");
  }
  if (written.tokenEndpointAuthMethod !== undefined) settings.tokenEndpointAuthMethod = written.tokenEndpointAuthMethod;
  const { perUser, anonymous } = entry.oauth ?? {};
  if (perUser === true) settings.perUser = true;
  if (anonymous !== undefined) settings.anonymous = anonymous;
  if (anonymous !== undefined && perUser !== true) problem(at("anonymous"), '"anonymous" is for a per-user server; set "perUser": true');
  if (perUser === true && settings.grant === "client_credentials") problem(at("perUser"), 'A client_credentials login is the client\'s own, not a person\'s: "perUser" needs the authorization_code grant');
  if (settings.clientMetadataUrl !== undefined && !isHttpsUrlWithPath(settings.clientMetadataUrl)) {
    problem(at("clientMetadataUrl"), `Expected an https URL with a path (a client ID metadata document), got ${JSON.stringify(settings.clientMetadataUrl)}`);
  }
  if (settings.grant === "client_credentials") {
    if (settings.clientId === undefined) problem([key], 'The client_credentials grant needs "clientId" (a client registered with the authorization server)');
    if (settings.clientSecret === undefined && settings.privateKey === undefined) problem([key], 'The client_credentials grant needs "clientSecret" or "privateKey" (private_key_jwt)');
  } else {
    for (const name of ["privateKey", "issuer"] as const) {
      if (settings[name] !== undefined) problem(at(name), `"${name}" is for the client_credentials grant; set "grant": "client_credentials"`);
    }
  }
  if (settings.clientSecret !== undefined && settings.clientId === undefined) problem(at("clientSecret"), '"clientSecret" needs "clientId" (the client it belongs to)');
  const methodProblem = settings.tokenEndpointAuthMethod === undefined ? undefined : tokenEndpointAuthMethodProblem(settings.tokenEndpointAuthMethod, settings);
  if (methodProblem !== undefined) problem(at("tokenEndpointAuthMethod"), methodProblem);
  return settings;
}

/** Why `method` would be ignored (no pre-registered client) or cannot work with the client's credentials; undefined when it works. */
function tokenEndpointAuthMethodProblem(method: NonNullable<McpOAuthSettings["tokenEndpointAuthMethod"]>, settings: McpOAuthSettings): string | undefined {
  if (settings.clientId === undefined) return '"tokenEndpointAuthMethod" is for a pre-registered client; set "clientId" (a dynamically registered client authenticates as the authorization server told it)';
  if (settings.privateKey !== undefined) return method === "private_key_jwt" ? undefined : `"privateKey" authenticates with private_key_jwt, not ${method}; remove "tokenEndpointAuthMethod" or set it to "private_key_jwt"`;
  if (method === "private_key_jwt") return '"private_key_jwt" needs "grant": "client_credentials" and "privateKey" (the key that signs the client assertion)';
  if (method === "none" && settings.grant === "client_credentials") return 'The client_credentials grant authenticates the client: "none" cannot work; use "client_secret_basic" or "client_secret_post"';
  return undefined;
}

function isHttpsUrlWithPath(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "https:" && url.pathname !== "/";
  } catch {
    return false;
  }
}
