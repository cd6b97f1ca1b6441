/**
 * The fetch used for untrusted servers: every socket it opens goes through a DNS lookup that refuses
 * forbidden addresses, so a name that resolved to a public address when the server was added and
 * to 127.0.0.1 later (DNS rebinding) is refused at connect time. Built on node:http, whose `lookup`
 * hook sits exactly where the address is chosen; the global fetch offers no such hook.
 */
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import http from "node:http";
import https from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { Readable } from "node:stream";
import { ToolexecError } from "../../core/errors/toolexec-error.js";
import { forbiddenAddressReason, forbiddenHostnameReason } from "./address-policy.js";

export type FetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>;

/** Resolves a name to all its addresses; `dns.lookup` with `all: true` by default. */
export type ResolveAll = (hostname: string) => Promise<LookupAddress[]>;

export const resolveWithDns: ResolveAll = (hostname) =>
  new Promise((resolve, reject) => dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))));

const refusal = (url: string, reason: string) =>
  new ToolexecError("SERVER_NOT_ALLOWED", `Refused ${url}: it leads to ${reason}; untrusted servers must be public http(s) URLs`, { details: { url, reason } });

/**
 * Check an untrusted server URL before it is added: http(s), a public host name or address, and every
 * address the name resolves to public. Resolves to the refusal, or undefined when the URL may be used.
 *
 * @example
 * await checkUntrustedUrl("http://169.254.169.254/latest"); // ToolexecError SERVER_NOT_ALLOWED
 */
export async function checkUntrustedUrl(text: string, resolveAll: ResolveAll = resolveWithDns): Promise<ToolexecError | undefined> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return new ToolexecError("SERVER_NOT_ALLOWED", `Refused ${JSON.stringify(text)}: not an absolute URL`, { details: { url: text } });
  }
  const shown = `${url.protocol}//${url.host}`;
  if (url.protocol !== "http:" && url.protocol !== "https:") return refusal(shown, `the ${url.protocol} scheme (only http: and https: are allowed)`);
  if (url.username !== "" || url.password !== "") return refusal(shown, "a URL with credentials in it (send them as headers)");
  const hostname = url.hostname.replace(/^\[(.*)\]$/, "$1");
  if (isIP(hostname)) {
    const reason = forbiddenAddressReason(hostname);
    return reason === undefined ? undefined : refusal(shown, reason);
  }
  const nameReason = forbiddenHostnameReason(hostname);
  if (nameReason !== undefined) return refusal(shown, nameReason);
  let addresses: LookupAddress[];
  try {
    addresses = await resolveAll(hostname);
  } catch (error) {
    return new ToolexecError("SERVER_NOT_ALLOWED", `Refused ${shown}: its name does not resolve (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, { details: { url: shown } });
  }
  for (const { address } of addresses) {
    const reason = forbiddenAddressReason(address);
    if (reason !== undefined) return refusal(shown, `${reason} (${hostname} resolves to ${address})`);
  }
  return undefined;
}

/** A `lookup` for node:net that resolves as usual and refuses when any address is forbidden. */
export function createGuardedLookup(resolveAll: ResolveAll = resolveWithDns): LookupFunction {
  return (hostname, options, callback) => {
    const nameReason = forbiddenHostnameReason(hostname);
    if (nameReason !== undefined) return callback(refusal(hostname, nameReason), "", 4);
    resolveAll(hostname).then(
      (addresses) => {
        const wanted = options.family === 4 || options.family === 6 ? addresses.filter((entry) => entry.family === options.family) : addresses;
        for (const { address } of wanted) {
          const reason = forbiddenAddressReason(address);
          if (reason !== undefined) return callback(refusal(hostname, `${reason} (${hostname} now resolves to ${address})`), "", 4);
        }
        if (wanted.length === 0) return callback(Object.assign(new Error(`No address for ${hostname}`), { code: "ENOTFOUND" }), "", 4);
        if (options.all) return (callback as unknown as (error: null, addresses: LookupAddress[]) => void)(null, wanted);
        callback(null, wanted[0]!.address, wanted[0]!.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, "", 4),
    );
  };
}

/**
 * A fetch over node:http(s) whose connections pass the guarded lookup. It never follows redirects
 * (the MCP SDK follows same-origin ones itself, through this fetch again).
 *
 * @example
 * const fetch = createGuardedFetch();
 * await fetch("http://127.0.0.1:8080/mcp"); // rejects: SERVER_NOT_ALLOWED
 */
export function createGuardedFetch(resolveAll: ResolveAll = resolveWithDns): { fetch: FetchLike; close(): void } {
  const lookup = createGuardedLookup(resolveAll);
  const agents = { "http:": new http.Agent({ keepAlive: true }), "https:": new https.Agent({ keepAlive: true }) };
  const fetch: FetchLike = (input, init = {}) =>
    new Promise<Response>((resolve, reject) => {
      const url = new URL(String(input));
      if (url.protocol !== "http:" && url.protocol !== "https:") return reject(refusal(`${url.protocol}//${url.host}`, `the ${url.protocol} scheme`));
      const literal = url.hostname.replace(/^\[(.*)\]$/, "$1");
      // node:net skips `lookup` for IP literals, so they are checked here.
      const literalReason = isIP(literal) ? forbiddenAddressReason(literal) : undefined;
      if (literalReason !== undefined) return reject(refusal(`${url.protocol}//${url.host}`, literalReason));
      if (init.signal?.aborted) return reject(init.signal.reason);
      const headers: Record<string, string> = {};
      new Headers(init.headers).forEach((value, key) => (headers[key] = value));
      const module = url.protocol === "https:" ? https : http;
      const request = module.request(url, { method: init.method ?? "GET", headers, lookup, agent: agents[url.protocol], signal: init.signal ?? undefined }, (response) => {
        const responseHeaders = new Headers();
        for (const [key, value] of Object.entries(response.headers)) {
          for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value]) responseHeaders.append(key, item);
        }
        const status = response.statusCode ?? 502;
        const empty = status === 204 || status === 304 || init.method === "HEAD";
        if (empty) response.resume();
        resolve(new Response(empty ? null : (Readable.toWeb(response) as ReadableStream<Uint8Array>), { status, statusText: response.statusMessage ?? "", headers: responseHeaders }));
      });
      request.on("error", reject);
      // The OAuth token requests send URLSearchParams.
      if (typeof init.body === "string" || init.body instanceof URLSearchParams) request.end(String(init.body));
      else request.end();
    });
  return {
    fetch,
    close() {
      agents["http:"].destroy();
      agents["https:"].destroy();
    },
  };
}
