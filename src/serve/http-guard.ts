/**
 * The checks every HTTP request to a served executor passes before it reaches MCP: the Host and
 * Origin headers (DNS rebinding: a web page must not reach a server on 127.0.0.1 through a name it
 * controls) and the bearer token, compared in constant time.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { isIP } from "node:net";

const LOOPBACK_NAMES = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

/** Whether `host` (an address to bind to) is a loopback address or name. */
export function isLoopbackHost(host: string): boolean {
  if (LOOPBACK_NAMES.has(host)) return true;
  return isIP(host) === 4 && host.startsWith("127.");
}

/** `example.com:8080` → `example.com`; `[::1]:8080` → `[::1]`. */
function hostName(header: string): string {
  if (header.startsWith("[")) return header.slice(0, header.indexOf("]") + 1);
  const colon = header.lastIndexOf(":");
  return colon === -1 ? header : header.slice(0, colon);
}

export interface GuardOptions {
  /** Bound to loopback: only loopback Host names and Origins are accepted unless listed below. */
  loopback: boolean;
  /** Extra Host names accepted (without port), e.g. a proxy's public name. */
  allowedHosts: readonly string[];
  /** Extra Origins accepted, e.g. `https://app.example.com`. */
  allowedOrigins: readonly string[];
  /** The bearer token every request must carry, if any. */
  token: string | undefined;
}

export type GuardVerdict = { ok: true } | { ok: false; status: 401 | 403; message: string };

const digest = (text: string) => createHash("sha256").update(text).digest();

/**
 * @example
 * const verdict = checkRequest(request, { loopback: true, allowedHosts: [], allowedOrigins: [], token });
 * if (!verdict.ok) respond(verdict.status, verdict.message);
 */
export function checkRequest(request: IncomingMessage, options: GuardOptions): GuardVerdict {
  const host = request.headers.host;
  if (host === undefined) return { ok: false, status: 403, message: "Missing Host header" };
  const name = hostName(host).toLowerCase();
  const hostAllowed = options.allowedHosts.includes(name) || (options.loopback ? LOOPBACK_NAMES.has(name) || (isIP(name) === 4 && name.startsWith("127.")) : true);
  if (!hostAllowed) return { ok: false, status: 403, message: `Host "${host}" is not allowed` };
  const origin = request.headers.origin;
  if (origin !== undefined && !options.allowedOrigins.includes(origin)) {
    let originHost: string;
    try {
      originHost = new URL(origin).hostname;
    } catch {
      return { ok: false, status: 403, message: `Origin "${origin}" is not allowed` };
    }
    const loopbackOrigin = LOOPBACK_NAMES.has(originHost) || LOOPBACK_NAMES.has(`[${originHost}]`) || (isIP(originHost) === 4 && originHost.startsWith("127."));
    if (!(options.loopback && loopbackOrigin)) return { ok: false, status: 403, message: `Origin "${origin}" is not allowed` };
  }
  if (options.token !== undefined) {
    const header = request.headers.authorization ?? "";
    // RFC 7235: the scheme is case-insensitive ("bearer" is as good as "Bearer").
    const presented = /^bearer +/i.exec(header) ? header.replace(/^bearer +/i, "") : "";
    // Digests of equal length: timingSafeEqual needs them, and the compare leaks nothing about the token's length.
    if (!timingSafeEqual(digest(presented), digest(options.token))) return { ok: false, status: 401, message: "Missing or wrong bearer token" };
  }
  return { ok: true };
}
