/**
 * Which protocol era a request belongs to. A 2026-07-28 request carries the per-request envelope's
 * claim (`_meta["io.modelcontextprotocol/protocolVersion"]`); a 2025-era one (`initialize`, then
 * `Mcp-Session-Id` requests) does not. Over HTTP the SDK's own classifier decides what is neither
 * plainly 2025-era nor a claimed POST (a modern header without a claim), so this routing never
 * disagrees with the modern handler it routes to.
 */
import type { IncomingMessage } from "node:http";

/** The envelope's claim (the SDK's `PROTOCOL_VERSION_META_KEY`; the v2 packages load on the first 2026 request). */
const PROTOCOL_VERSION_META_KEY = "io.modelcontextprotocol/protocolVersion";

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === "object" && !Array.isArray(value);

/** Whether one JSON-RPC message carries the 2026 envelope claim. */
export function hasEnvelopeClaim(message: unknown): boolean {
  if (!isRecord(message) || !isRecord(message.params)) return false;
  const meta = message.params._meta;
  return isRecord(meta) && PROTOCOL_VERSION_META_KEY in meta;
}

/** A header naming a 2024/2025 revision, or none: with no claim in the body, plainly 2025-era. */
const isOldVersionHeader = (header: string | string[] | undefined) => header === undefined || (typeof header === "string" && /^202[45]-/.test(header));

/**
 * @example
 * if (await isModernRequest(request, body)) return modern.handle(request, response, body);
 */
export async function isModernRequest(request: IncomingMessage, body: unknown): Promise<boolean> {
  // Both common cases decide from the parsed body, without building a web Request (the modern
  // handler builds its own): a 2025 request has no claim and no modern header; a POST whose JSON
  // carries the claim is the modern path's in the SDK's rules, whatever it then answers.
  const claimed = Array.isArray(body) ? body.some(hasEnvelopeClaim) : hasEnvelopeClaim(body);
  if (!claimed && isOldVersionHeader(request.headers["mcp-protocol-version"])) return false;
  if (request.method !== "POST") return false;
  if (claimed) return true;
  const [{ isLegacyRequest }, { toWebRequest }] = await Promise.all([import("@modelcontextprotocol/server"), import("@modelcontextprotocol/node")]);
  return !(await isLegacyRequest(await toWebRequest(request, body), body));
}

/** A `subscriptions/listen` request: a stream that stays open, not a call under way. */
export const isListenRequest = (body: unknown) => isRecord(body) && body.method === "subscriptions/listen";
