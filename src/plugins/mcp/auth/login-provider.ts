/**
 * The SDK's `OAuthClientProvider` for the authorization-code grant, backed by a token store: the
 * client (pre-registered from config, a client ID metadata document, or registered dynamically),
 * the tokens and the last scope a server asked for persist; the PKCE verifier and the `state`
 * of a login under way stay in memory. The SDK runs the flow (discovery, registration, PKCE,
 * refresh); this object only remembers.
 *
 * The record is read from the store once and kept: the SDK asks for the tokens before every HTTP
 * request, and a file read each time is a cost for nothing. Writes go through to the store; `reload`
 * reads it again (another process — `toolexec auth login` — may have logged in since).
 */
import { randomBytes } from "node:crypto";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import type { McpOAuthSettings } from "../config/resolve-mcp-oauth.js";
import type { OAuthTokenStore, StoredAuthorization } from "./token-store.js";

/** How toolexec names itself to authorization servers. */
const CLIENT_NAME = "toolexec";

export interface LoginProviderOptions {
  settings: McpOAuthSettings;
  serverUrl: string;
  store: OAuthTokenStore;
  key: string;
  /** The SDK needs a person at this URL (no token, or a refresh that was refused). */
  onRedirect(authorizationUrl: URL): void;
  /** A value that must never be logged came into use (a token, a verifier, a client secret). */
  onSecret(value: string): void;
}

export interface LoginProvider extends OAuthClientProvider {
  /** The `state` sent with the last authorization URL; a redirect back must carry it. */
  pendingState(): string | undefined;
  /** The record as last read or written. */
  stored(): Promise<StoredAuthorization>;
  /** Read the record from the store again at the next use (another process may have written it). */
  reload(): void;
  /**
   * A server asked for `scope` (403 insufficient_scope). Until tokens with it are saved, the stored
   * refresh token is not offered: the SDK would refresh the old scope instead of asking the person.
   */
  requireScope(scope: string): void;
  /** Tokens were found or saved (as of the last read or write). */
  hasTokens(): boolean;
  /** The access token as of the last read or write. */
  accessToken(): string | undefined;
  /** Forget the tokens, the client registered here and any login under way. */
  forget(): Promise<void>;
}

/** `http://127.0.0.1:<port>/callback`: a loopback redirect URI (RFC 8252), as the CLI listens for it. */
const redirectUrlFor = (settings: McpOAuthSettings) => `http://127.0.0.1:${settings.callbackPort}/callback`;

/**
 * @example
 * const provider = createLoginProvider({ settings, serverUrl, store, key, onRedirect: (url) => host.open(url), onSecret });
 * new StreamableHTTPClientTransport(new URL(serverUrl), { authProvider: provider });
 */
export function createLoginProvider(options: LoginProviderOptions): LoginProvider {
  const { settings, serverUrl, store, key, onSecret } = options;
  const redirectUrl = redirectUrlFor(settings);
  let verifier: string | undefined;
  let state: string | undefined;
  /** Writes one after another, each on the record the previous one left. */
  let queue: Promise<unknown> = Promise.resolve();
  let holdsTokens = false;
  let currentAccessToken: string | undefined;
  const note = (record: StoredAuthorization | undefined) => {
    holdsTokens = record?.tokens !== undefined;
    currentAccessToken = record?.tokens?.access_token;
  };
  let requiredScope: string[] | undefined;
  const covers = (granted: string | undefined) => requiredScope === undefined || (granted !== undefined && requiredScope.every((scope) => granted.split(" ").includes(scope)));

  /** The record as last read or written; undefined until read, and again after `reload`. */
  let cached: Promise<StoredAuthorization> | undefined;
  const load = async (): Promise<StoredAuthorization> => {
    const record = (await store.load(key)) ?? { serverUrl };
    note(record);
    if (record.tokens?.access_token) onSecret(record.tokens.access_token);
    if (record.tokens?.refresh_token) onSecret(record.tokens.refresh_token);
    if (record.client?.client_secret) onSecret(record.client.client_secret);
    return record;
  };
  const read = (): Promise<StoredAuthorization> => {
    if (cached) return cached;
    const reading = load();
    cached = reading;
    // A failed read is not kept: the next use reads again.
    reading.catch(() => cached === reading && (cached = undefined));
    return reading;
  };
  const update = (change: (record: StoredAuthorization) => StoredAuthorization | undefined): Promise<void> => {
    const next = queue.then(async () => {
      const changed = change(await read());
      note(changed);
      if (changed) await store.save(key, changed);
      else await store.remove(key);
      cached = Promise.resolve(changed ?? { serverUrl });
    });
    queue = next.catch(() => undefined);
    return next;
  };

  const preRegistered = (): OAuthClientInformationMixed | undefined => {
    if (settings.clientId === undefined) return undefined;
    return {
      client_id: settings.clientId,
      ...(settings.clientSecret === undefined ? {} : { client_secret: settings.clientSecret }),
      ...(settings.tokenEndpointAuthMethod === undefined ? {} : { token_endpoint_auth_method: settings.tokenEndpointAuthMethod }),
    };
  };

  const clientMetadata: OAuthClientMetadata = {
    client_name: CLIENT_NAME,
    redirect_uris: [redirectUrl],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    ...(settings.scope === undefined ? {} : { scope: settings.scope }),
  };

  return {
    redirectUrl,
    clientMetadata,
    ...(settings.clientMetadataUrl === undefined ? {} : { clientMetadataUrl: settings.clientMetadataUrl }),
    state() {
      state = randomBytes(24).toString("base64url");
      return state;
    },
    pendingState: () => state,
    async clientInformation() {
      const configured = preRegistered();
      if (configured) return configured;
      const client = (await read()).client;
      // Registered for another redirect URI (callbackPort changed): register again.
      const uris = (client as { redirect_uris?: string[] } | undefined)?.redirect_uris;
      if (client && uris && !uris.includes(redirectUrl)) return undefined;
      return client;
    },
    async saveClientInformation(client) {
      if (settings.clientId !== undefined) return;
      if (client.client_secret) onSecret(client.client_secret);
      await update((record) => ({ ...record, client }));
    },
    async tokens() {
      const { tokens } = await read();
      if (!tokens || covers(tokens.scope)) return tokens;
      const { refresh_token: _withheld, ...rest } = tokens;
      return rest;
    },
    requireScope(scope) {
      requiredScope = scope.split(" ").filter(Boolean);
    },
    async saveTokens(tokens: OAuthTokens) {
      onSecret(tokens.access_token);
      if (tokens.refresh_token) onSecret(tokens.refresh_token);
      state = undefined;
      verifier = undefined;
      if (covers(tokens.scope ?? requiredScope?.join(" "))) requiredScope = undefined;
      await update((record) => ({ ...record, tokens }));
    },
    async redirectToAuthorization(authorizationUrl) {
      const scope = authorizationUrl.searchParams.get("scope") ?? undefined;
      await update((record) => {
        const { scope: _previous, ...rest } = record;
        return scope === undefined ? rest : { ...rest, scope };
      });
      options.onRedirect(authorizationUrl);
    },
    saveCodeVerifier(codeVerifier) {
      onSecret(codeVerifier);
      verifier = codeVerifier;
    },
    codeVerifier() {
      if (verifier === undefined) throw new Error("No login is under way (no PKCE code verifier): start the login again");
      return verifier;
    },
    async invalidateCredentials(scope) {
      if (scope === "verifier" || scope === "all") {
        verifier = undefined;
        state = undefined;
      }
      // One read-modify-write of the record for the keys the scope names.
      const dropped = (["tokens", "client", "discovery"] as const).filter((key) => scope === key || scope === "all");
      if (dropped.length > 0) {
        await update((record) => {
          const kept = { ...record };
          for (const key of dropped) delete kept[key];
          return kept;
        });
      }
    },
    async discoveryState() {
      return (await read()).discovery;
    },
    async saveDiscoveryState(discovery) {
      await update((record) => ({ ...record, discovery }));
    },
    stored: () => queue.then(read),
    reload: () => void (cached = undefined),
    hasTokens: () => holdsTokens,
    accessToken: () => currentAccessToken,
    async forget() {
      verifier = undefined;
      state = undefined;
      await update(() => undefined);
    },
  };
}
