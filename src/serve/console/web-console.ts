/**
 * The web console at `/console` on the served HTTP port (`serveHttp(…, { console: {} })`, `toolexec
 * serve --http --console`). The page and its scripts hold no data and are served to anyone who passes
 * the Host/Origin checks; every `/console/api/` request needs an operator's credential when the port
 * needs a credential at all: the static token, or an API key or JWT with the `toolexec:operator` scope.
 * A browser cannot add a header to a navigation, so the page asks for the token, keeps it in
 * sessionStorage (gone with the tab) and sends it as `Authorization: Bearer` on each fetch: it is
 * never in a URL, a cookie or a log. A strict Content-Security-Policy allows only the console's own
 * scripts and styles (no inline script) and no framing.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { isToolexecError, type Executor } from "../../index.js";
import { checkRequest, type GuardOptions } from "../http-guard.js";
import type { OperatorVerdict } from "../identity/served-identity.js";
import { openExecutionLog } from "../../logs.js";
import { answerConsoleRequest } from "./console-api.js";
import { loadConsoleAssets } from "./console-assets.js";

export const CONSOLE_PATH = "/console";
const API_PREFIX = `${CONSOLE_PATH}/api`;

/** Sent with every console response. */
export const CONSOLE_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "content-security-policy": "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  "x-frame-options": "DENY",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-resource-policy": "same-origin",
};

export interface WebConsoleOptions {
  /** The served port's Host/Origin rules. */
  guard: GuardOptions;
  /** Whether a request may use the console's API (an operator's credential, served-identity.ts). */
  authorize(request: IncomingMessage): Promise<OperatorVerdict>;
  /** The execution log folder the executions page reads; undefined when there is no log. */
  logDir: string | undefined;
  readBody(request: IncomingMessage): Promise<{ ok: true; value: unknown } | { ok: false; status: 400 | 413; message: string }>;
}

export interface WebConsole {
  handles(pathname: string): boolean;
  handle(request: IncomingMessage, response: ServerResponse, pathname: string): Promise<void>;
}

function send(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (response.headersSent) return void response.end();
  response.writeHead(status, { ...CONSOLE_SECURITY_HEADERS, "content-type": "application/json", "cache-control": "no-store", ...headers });
  response.end(JSON.stringify(body));
}

/** Thrown while reading a body: answered with its status. */
class BodyFault extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

/**
 * @example
 * const webConsole = createWebConsole(executor, { guard, logDir, readBody });
 * if (webConsole.handles(url.pathname)) return webConsole.handle(request, response, url.pathname);
 */
export function createWebConsole(executor: Executor, options: WebConsoleOptions): WebConsole {
  const assets = loadConsoleAssets();
  const log = options.logDir === undefined ? undefined : openExecutionLog(options.logDir);
  return {
    handles: (pathname) => pathname === CONSOLE_PATH || pathname.startsWith(`${CONSOLE_PATH}/`),
    async handle(request, response, pathname) {
      // The page's own fetches carry its origin, which is this server's, also off loopback (the token guards those).
      const self = `http://${request.headers.host ?? ""}`;
      const api = pathname === API_PREFIX || pathname.startsWith(`${API_PREFIX}/`);
      const checked = checkRequest(request, { ...options.guard, allowedOrigins: [...options.guard.allowedOrigins, self], token: undefined });
      const verdict = checked.ok && api ? await options.authorize(request) : checked;
      if (!verdict.ok) {
        const headers: Record<string, string> = { ...("headers" in verdict ? verdict.headers : {}), ...(verdict.status === 401 ? { "www-authenticate": 'Bearer realm="toolexec-console"' } : {}) };
        // A refused Host or Origin is the request's fault; a credential without the operator scope is FORBIDDEN.
        const code = verdict.status === 401 ? "AUTH_FAILED" : verdict.status === 503 ? "SERVICE_UNAVAILABLE" : checked.ok ? "FORBIDDEN" : "INVALID_INPUT";
        return send(response, verdict.status, { ok: false, error: { code, message: verdict.message } }, headers);
      }
      if (!api) {
        const name = pathname === CONSOLE_PATH || pathname === `${CONSOLE_PATH}/` ? "index.html" : pathname.slice(CONSOLE_PATH.length + 1);
        const asset = assets.get(name);
        if (!asset || (request.method !== "GET" && request.method !== "HEAD")) return send(response, 404, { ok: false, error: { code: "TOOL_NOT_FOUND", message: `No console page ${pathname}` } });
        response.writeHead(200, { ...CONSOLE_SECURITY_HEADERS, "content-type": asset.type, "cache-control": "no-cache" });
        return void response.end(request.method === "HEAD" ? undefined : asset.body);
      }
      const url = new URL(request.url ?? "/", "http://localhost");
      try {
        const answer = await answerConsoleRequest(executor, log, {
          method: request.method ?? "GET",
          route: pathname.slice(API_PREFIX.length) || "/",
          query: url.searchParams,
          body: async () => {
            const read = await options.readBody(request);
            if (!read.ok) throw new BodyFault(read.status, read.message);
            return read.value;
          },
        });
        send(response, answer.status, answer.body);
      } catch (error) {
        if (error instanceof BodyFault) return send(response, error.status, { ok: false, error: { code: "INVALID_INPUT", message: error.message } });
        if (isToolexecError(error)) return send(response, error.code === "EXECUTOR_CLOSED" ? 503 : 500, { ok: false, error: { code: error.code, message: error.message } });
        throw error;
      }
    },
  };
}
