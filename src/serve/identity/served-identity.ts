/**
 * Identity for a served HTTP endpoint, in one place serve-http.ts asks: the protected-resource
 * metadata route, the profile a path names (`/mcp/p/<name>`), and per request the principal and its
 * access (profile view, scopes, tier, limits). A session stays with the principal and profile that
 * opened it: another credential on its id is answered as an unknown session.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { ToolexecError, type Executor } from "../../index.js";
import type { CallerAccess } from "../../plugin.js";
import { identityPlugin, profilesPlugin, type ResolvedProfile } from "../../config.js";
import type { KeyStorage } from "./api-keys.js";
import { createAuthenticator } from "./authenticate.js";
import type { OAuthSettings } from "./jwt-verifier.js";
import { createPrincipalAccess } from "./principal-access.js";
import { OPERATOR_SCOPE } from "./principal.js";
import { createPrincipalLimits, type LimitSettings } from "./principal-limits.js";
import { isProtectedResourcePath, protectedResourceMetadata, resourceMetadataUrl } from "./protected-resource.js";

export interface IdentityOptions {
  /** Accept JWTs from this issuer (default: tools.json's `identity.oauth`). */
  oauth?: OAuthSettings;
  /** Where API keys are kept (default: the executor's store); `false`: no keys. */
  keys?: KeyStorage | false;
  /** Per-principal limits (default: tools.json's `identity.limits`). */
  limits?: LimitSettings;
  /** Told when limits cannot be counted (the store is down) and calls go through uncounted. */
  warn?(message: string): void;
}

/** The profile segment of the endpoint's path. */
export const PROFILE_PATH = "/p/";

export type OperatorVerdict = { ok: true } | { ok: false; status: number; message: string; headers: Record<string, string> };

export type Admission = { ok: true; access: CallerAccess; owner: string } | { ok: false; status: number; message: string; headers: Record<string, string> };

export interface ServedIdentity {
  /** Whether `pathname` is served here (the protected-resource metadata). */
  handles(pathname: string): boolean;
  handle(request: IncomingMessage, response: ServerResponse): void;
  /** Whether `pathname` is the endpoint or a profile's path under it, and which profile. */
  route(pathname: string): { profile: string | undefined } | undefined;
  /** The principal behind `request`, with its access through `profile`; or the refusal to send. */
  admit(request: IncomingMessage, profile: string | undefined): Promise<Admission>;
  /**
   * Whether `request` may use the operator routes (`/metrics`, `/readyz`, the console's API): the
   * static token, a key or JWT with the `toolexec:operator` scope, or no credential where none is needed.
   */
  authorizeOperator(request: IncomingMessage): Promise<OperatorVerdict>;
  /** Stop following the registry. */
  close(): void;
}

function checkOAuthSettings(oauth: OAuthSettings): void {
  let issuer: URL | undefined;
  try {
    issuer = new URL(oauth.issuer);
  } catch {
    issuer = undefined;
  }
  if (issuer === undefined || !/^https?:$/.test(issuer.protocol)) throw new ToolexecError("INVALID_OPTIONS", `oauth.issuer must be the issuer's http(s) URL, got ${JSON.stringify(oauth.issuer)}`);
  if (typeof oauth.audience !== "string" || oauth.audience === "") throw new ToolexecError("INVALID_OPTIONS", "oauth.audience must name the audience (aud) tokens are issued for, e.g. this server's URL");
}

const refusal = (status: number, message: string): Admission => ({ ok: false, status, message, headers: {} });

/**
 * @example
 * const identity = createServedIdentity(executor, "/mcp", { token, keys: store });
 * const admission = await identity.admit(request, identity.route(url.pathname)?.profile);
 */
export function createServedIdentity(executor: Executor, endpoint: string, token: string | undefined, options: IdentityOptions): ServedIdentity {
  const configured = executor.pluginApi(identityPlugin)?.identity() ?? {};
  const oauth = options.oauth ?? configured.oauth;
  if (oauth !== undefined) checkOAuthSettings(oauth);
  const keys = options.keys === false ? undefined : (options.keys ?? executor.store);
  const authenticator = createAuthenticator({ ...(token === undefined ? {} : { token }), ...(keys === undefined ? {} : { keys }), ...(oauth === undefined ? {} : { oauth }) });
  const limitSettings = options.limits ?? configured.limits;
  // Counted in the executor's store: replicas sharing it (Redis) share each principal's count.
  const limits = limitSettings ? createPrincipalLimits(limitSettings, { counters: executor.store, warn: options.warn ?? ((message) => process.emitWarning(`toolexec: ${message}`)) }) : undefined;
  // A listing does not say which tools are saved tools (they have no tier of their own): kept up to date here.
  let savedTools = new Set<string>();
  const refreshSaved = () => void executor.listSavedTools().then((tools) => (savedTools = new Set(tools.map((tool) => tool.name))), () => undefined);
  refreshSaved();
  const unsubscribe = executor.on("tools:changed", refreshSaved);

  return {
    close() {
      unsubscribe();
      authenticator.close();
    },
    handles: (pathname) => oauth !== undefined && isProtectedResourcePath(pathname, endpoint),
    handle(request, response) {
      response.writeHead(200, { "content-type": "application/json", "cache-control": "max-age=300" });
      response.end(JSON.stringify(protectedResourceMetadata(request, endpoint, oauth!)));
    },
    route(pathname) {
      if (pathname === endpoint) return { profile: undefined };
      if (!pathname.startsWith(endpoint + PROFILE_PATH)) return undefined;
      const name = decodeURIComponent(pathname.slice(endpoint.length + PROFILE_PATH.length));
      return name === "" || name.includes("/") ? undefined : { profile: name };
    },
    async authorizeOperator(request) {
      const verdict = await authenticator.authenticate(request, resourceMetadataUrl(request, endpoint));
      if (!verdict.ok) return verdict;
      const { principal } = verdict;
      if (principal.kind === "local" || principal.operator === true) return { ok: true };
      return refusal(403, `${principal.kind} "${principal.id}" lacks the "${OPERATOR_SCOPE}" scope the operator routes need`);
    },
    async admit(request, pathProfile) {
      const verdict = await authenticator.authenticate(request, resourceMetadataUrl(request, endpoint));
      if (!verdict.ok) return verdict;
      const { principal } = verdict;
      if (pathProfile !== undefined && principal.profile !== undefined && pathProfile !== principal.profile) {
        return refusal(403, `This credential is bound to the profile "${principal.profile}"; use ${endpoint}${PROFILE_PATH}${principal.profile}`);
      }
      const name = pathProfile ?? principal.profile;
      const profiles: Readonly<Record<string, ResolvedProfile>> = executor.pluginApi(profilesPlugin)?.profiles() ?? {};
      const settings = name === undefined ? undefined : profiles[name];
      if (name !== undefined && settings === undefined) return refusal(404, `No profile named "${name}"; profiles are defined in tools.json's "profiles"`);
      const access = createPrincipalAccess({
        principal,
        ...(name === undefined ? {} : { profile: { name, settings: settings! } }),
        ...(limits === undefined ? {} : { limits }),
        isSavedTool: (tool) => savedTools.has(tool),
      });
      return { ok: true, access, owner: `${principal.kind}:${principal.id}:${name ?? ""}` };
    },
  };
}
