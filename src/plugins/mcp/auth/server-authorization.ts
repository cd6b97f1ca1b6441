/**
 * One server's OAuth: the provider its transport is given, whether a person must log in, and the
 * two halves of a login (the authorization URL, then the code that comes back). Client-credentials
 * servers use the SDK's own providers (secret or private-key JWT) and never need a person.
 */
import { ClientCredentialsProvider, PrivateKeyJwtProvider } from "@modelcontextprotocol/sdk/client/auth-extensions.js";
import { auth, extractWWWAuthenticateParams, type OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type { McpOAuthSettings } from "../config/resolve-mcp-oauth.js";
import { ToolexecError } from "../../../core/errors/toolexec-error.js";
import type { FetchLike } from "../guarded-fetch.js";
import { describeAuthorizationError } from "../session-failure.js";
import { createLoginProvider, type LoginProvider } from "./login-provider.js";
import type { OAuthTokenStore } from "./token-store.js";
import { cliInvocation } from "../../../core/cli-invocation.js";

/** `authorized`: tokens are held; `needs-login`: a person must log in; `unknown`: not asked yet. */
export type AuthorizationStatus = "authorized" | "needs-login" | "unknown";

/** A person is needed: the host sends them to `url` (its redirect comes back to `redirectUrl`). */
export interface AuthorizationRequest {
  server: string;
  url: string;
  redirectUrl: string;
}

/** The host's callback for {@link AuthorizationRequest}s; a rejection is logged and ignored. */
export type AuthorizationHandler = (request: AuthorizationRequest) => void | Promise<void>;

export interface ServerAuthorizationOptions {
  server: string;
  serverUrl: string;
  settings: McpOAuthSettings;
  store: OAuthTokenStore;
  fetch: FetchLike;
  onAuthorization?: AuthorizationHandler;
  warn(message: string): void;
}

export interface ServerAuthorization {
  readonly provider: OAuthClientProvider;
  /** The fetch for the server's transport: it notes the scope a 403 `insufficient_scope` asks for (step-up). */
  readonly fetch: FetchLike;
  /** The host answers authorization requests (so a call may wait for a login). */
  readonly interactive: boolean;
  status(): AuthorizationStatus;
  /** A request was refused for want of a login. */
  markNeedsLogin(): void;
  /** A session was initialized: whatever login was missing is not any more. */
  markConnected(): void;
  /**
   * While a login is needed: did another process (`toolexec auth login`) store tokens since? One
   * read of the store, shared by the checks that overlap; false when not `needs-login`.
   */
  loginStoredElsewhere(): Promise<boolean>;
  /** Whether the store holds tokens now (read afresh): a per-user principal without any is told to log in, no request sent. */
  hasStoredLogin(): Promise<boolean>;
  /** Start a login: the URL for the person, or `authorized` when stored tokens (or a refresh) do. */
  startLogin(): Promise<{ authorized: true } | { authorized: false; url: string; redirectUrl: string }>;
  /** Finish a login with the `code` (and `state`) of the redirect. Throws `AUTH_REQUIRED` when refused. */
  finishLogin(code: string, state: string | undefined): Promise<void>;
  /** Forget this server's tokens and registered client. */
  logout(): Promise<void>;
  /** Resolves true once a login finishes, false at the deadline or abort. */
  waitForLogin(deadline: number, signal: AbortSignal): Promise<boolean>;
  /** Every token, verifier, code and secret seen, for redaction. */
  secrets(): string[];
}

/**
 * Logins the host is asked for in a row without a session coming up: a server that refuses every
 * token (a scope it will never get) must not send the person round in circles.
 */
const MAX_LOGINS_WITHOUT_SUCCESS = 3;

/** The key of a server's record: its URL and the client it is configured with. */
const storeKeyFor = (serverUrl: string, settings: McpOAuthSettings) => `${serverUrl}\n${settings.clientId ?? ""}`;

function machineProvider(settings: McpOAuthSettings): OAuthClientProvider {
  const scope = { ...(settings.scope === undefined ? {} : { scope: settings.scope }), ...(settings.issuer === undefined ? {} : { expectedIssuer: settings.issuer }) };
  if (settings.privateKey !== undefined) {
    return new PrivateKeyJwtProvider({ clientId: settings.clientId!, privateKey: settings.privateKey, algorithm: settings.signingAlgorithm ?? "RS256", clientName: "toolexec", ...scope });
  }
  const provider = new ClientCredentialsProvider({ clientId: settings.clientId!, clientSecret: settings.clientSecret!, clientName: "toolexec", ...scope });
  // The SDK picks the method the authorization server prefers unless the client's information names one.
  if (settings.tokenEndpointAuthMethod !== undefined) {
    const information = { ...provider.clientInformation()!, token_endpoint_auth_method: settings.tokenEndpointAuthMethod };
    provider.saveClientInformation(information);
  }
  return provider;
}

/**
 * @example
 * const authorization = createServerAuthorization({ server: "docs", serverUrl, settings, store, fetch, warn });
 * new StreamableHTTPClientTransport(url, { authProvider: authorization.provider });
 */
export function createServerAuthorization(options: ServerAuthorizationOptions): ServerAuthorization {
  const { server, serverUrl, settings, fetch } = options;
  const secrets = new Set<string>([settings.clientSecret, settings.privateKey].filter((value): value is string => value !== undefined));
  const onSecret = (value: string) => secrets.add(value);
  let needsLogin = false;
  const waiters = new Set<() => void>();
  const loggedIn = () => {
    needsLogin = false;
    for (const wake of [...waiters]) wake();
  };
  const statusOf = (hasTokens: boolean): AuthorizationStatus => (needsLogin ? "needs-login" : hasTokens ? "authorized" : "unknown");
  /** Logins the host was asked for since a session last came up. */
  let loginsAsked = 0;
  const markers = {
    markNeedsLogin: () => void (needsLogin = true),
    markConnected: () => {
      needsLogin = false;
      loginsAsked = 0;
    },
  };

  if (settings.grant === "client_credentials") {
    const provider = machineProvider(settings);
    // The SDK's provider keeps its tokens in memory; they join the redaction list as they arrive.
    const saveTokens = provider.saveTokens.bind(provider);
    provider.saveTokens = (tokens) => {
      onSecret(tokens.access_token);
      if (tokens.refresh_token) onSecret(tokens.refresh_token);
      return saveTokens(tokens);
    };
    return {
      provider,
      fetch,
      interactive: false,
      status: () => statusOf(provider.tokens() !== undefined),
      ...markers,
      loginStoredElsewhere: async () => false,
      hasStoredLogin: async () => true,
      startLogin: async () => {
        const result = await auth(provider, { serverUrl, fetchFn: fetch }).catch((error: unknown) => {
          throw new ToolexecError("AUTH_REQUIRED", `Server "${server}": ${describeAuthorizationError(error)}`);
        });
        if (result === "AUTHORIZED") loggedIn();
        return { authorized: true };
      },
      finishLogin: async () => {
        throw new ToolexecError("INVALID_INPUT", `Server "${server}" uses the client_credentials grant: there is no login to finish`);
      },
      logout: async () => void provider.invalidateCredentials?.("tokens"),
      waitForLogin: async () => false,
      secrets: () => [...secrets],
    };
  }

  /** Set while `startLogin` runs: the authorization URL goes to its caller, not to the host's callback. */
  let capture: ((url: URL) => void) | undefined;
  const provider: LoginProvider = createLoginProvider({
    settings,
    serverUrl,
    store: options.store,
    key: storeKeyFor(serverUrl, settings),
    onSecret,
    onRedirect(url) {
      needsLogin = true;
      if (capture) return capture(url);
      if (!options.onAuthorization) return;
      if (loginsAsked >= MAX_LOGINS_WITHOUT_SUCCESS) {
        options.warn(`Server "${server}" still refuses after ${loginsAsked} logins in a row; not asking again until \`${cliInvocation()} auth login ${server}\` or startServerLogin`);
        return;
      }
      loginsAsked++;
      if (url.protocol !== "https:" && url.protocol !== "http:") {
        options.warn(`Server "${server}": ignored an authorization URL with the ${url.protocol} scheme`);
        return;
      }
      const request = { server, url: url.href, redirectUrl: String(provider.redirectUrl) };
      // Not awaited: the host may finish the login from inside its callback.
      Promise.resolve()
        .then(() => options.onAuthorization!(request))
        .catch((error: unknown) => options.warn(`onAuthorization for server "${server}" failed: ${(error as Error)?.message ?? String(error)}`));
    },
  });

  const run = async (authorizationCode?: string) => {
    const { scope } = await provider.stored();
    try {
      return await auth(provider, { serverUrl, fetchFn: fetch, ...(authorizationCode === undefined ? {} : { authorizationCode }), ...(scope === undefined ? {} : { scope }) });
    } catch (error) {
      throw new ToolexecError("AUTH_REQUIRED", `Server "${server}": ${describeAuthorizationError(error)}; run \`${cliInvocation()} auth login ${server}\` again`);
    }
  };

  /** The access token held when the server last asked for a login (a store still holding it has nothing new). */
  let refusedAccessToken: string | undefined;
  let checking: Promise<boolean> | undefined;
  const checkStore = async () => {
    provider.reload();
    await provider.stored();
    const found = provider.accessToken();
    return needsLogin && found !== undefined && found !== refusedAccessToken;
  };

  const watchingFetch: FetchLike = async (url, init) => {
    const response = await fetch(url, init);
    // Refused: the tokens in memory may be stale (another process refreshed or logged in); the SDK's
    // recovery that follows reads the store again.
    if (response.status === 401) provider.reload();
    if (response.status === 403) {
      const { error, scope } = extractWWWAuthenticateParams(response);
      if (error === "insufficient_scope" && scope) provider.requireScope(scope);
    }
    return response;
  };

  return {
    provider,
    fetch: watchingFetch,
    interactive: options.onAuthorization !== undefined,
    status: () => statusOf(provider.hasTokens()),
    ...markers,
    markNeedsLogin() {
      markers.markNeedsLogin();
      refusedAccessToken = provider.accessToken();
    },
    loginStoredElsewhere() {
      if (!needsLogin) return Promise.resolve(false);
      checking ??= checkStore().finally(() => (checking = undefined));
      return checking;
    },
    async hasStoredLogin() {
      provider.reload();
      await provider.stored();
      return provider.hasTokens();
    },
    async startLogin() {
      loginsAsked = 0;
      provider.reload();
      let url: URL | undefined;
      capture = (authorizationUrl) => (url = authorizationUrl);
      try {
        await provider.invalidateCredentials?.("verifier");
        const result = await run();
        if (result === "AUTHORIZED" || url === undefined) {
          loggedIn();
          return { authorized: true };
        }
        return { authorized: false, url: url.href, redirectUrl: String(provider.redirectUrl) };
      } finally {
        capture = undefined;
      }
    },
    async finishLogin(code, state) {
      onSecret(code);
      const expected = provider.pendingState();
      if (expected === undefined) throw new ToolexecError("AUTH_REQUIRED", `Server "${server}": no login is under way; start one first`);
      if (state !== expected) throw new ToolexecError("AUTH_REQUIRED", `Server "${server}": the redirect's state does not match the login under way (a stale or forged redirect); start the login again`);
      await run(code);
      loggedIn();
    },
    async logout() {
      await provider.forget();
      needsLogin = true;
    },
    waitForLogin(deadline, signal) {
      if (!options.onAuthorization || signal.aborted) return Promise.resolve(false);
      return new Promise((resolve) => {
        const done = (value: boolean) => {
          clearTimeout(timer);
          waiters.delete(wake);
          signal.removeEventListener("abort", stop);
          resolve(value);
        };
        const wake = () => done(true);
        const stop = () => done(false);
        const timer = setTimeout(stop, Math.max(0, deadline - Date.now()));
        waiters.add(wake);
        signal.addEventListener("abort", stop, { once: true });
      });
    },
    secrets: () => [...secrets],
  };
}
