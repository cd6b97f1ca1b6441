/**
 * Stored results, served as MCP resources: the template `toolexec://results/{handle}` lists them,
 * and reading `toolexec://results/<handle>` answers the whole value (text, JSON, or a blob for an
 * image or audio part), or one page of it with `?offset=&limit=&path=` as `read_result` takes them.
 * Reads go through `read_result` with the session as caller, so a session reads only its own handles.
 */
import { ErrorCode, type ReadResourceResult, type ResourceTemplate } from "@modelcontextprotocol/sdk/types.js";
import type { CallerInfo, Executor } from "../index.js";
import { protocolError, RESOURCE_NOT_FOUND } from "./protocol-error.js";

/** The scheme and path of a stored result's URI. */
export const RESULT_URI_PREFIX = "toolexec://results/";

/** The resource template clients see beside the upstream servers' own. */
export const RESULT_RESOURCE_TEMPLATE: ResourceTemplate = {
  uriTemplate: `${RESULT_URI_PREFIX}{handle}{?offset,limit,path}`,
  name: "stored-result",
  title: "A result cut short",
  description: "The whole of a tool result that was cut to the result budget: the handle its last line names (r_…). offset, limit and path read one page, as read_result does.",
};

/** The URI of a stored result. */
export function resultUri(handle: string): string {
  return `${RESULT_URI_PREFIX}${handle}`;
}

const wholeNumber = (text: string | null) => (text !== null && /^\d{1,15}$/.test(text) ? Number(text) : undefined);

/** The `read_result` arguments a result URI stands for; a read of the whole value when it names no page. */
function readArguments(uri: string): Record<string, unknown> {
  const url = new URL(uri);
  const handle = decodeURIComponent(url.pathname.replace(/^\//, "") || url.host);
  const offset = wholeNumber(url.searchParams.get("offset"));
  const limit = wholeNumber(url.searchParams.get("limit"));
  const path = url.searchParams.get("path");
  return { handle, ...(offset === undefined ? {} : { offset }), limit: limit ?? Number.MAX_SAFE_INTEGER, ...(path === null ? {} : { path }) };
}

function isBlob(value: unknown): value is { mimeType: string; data?: string; blob?: string } {
  const candidate = value as { mimeType?: unknown; data?: unknown; blob?: unknown } | null;
  return typeof candidate === "object" && candidate !== null && typeof candidate.mimeType === "string" && (typeof candidate.data === "string" || typeof candidate.blob === "string");
}

/**
 * @example
 * if (uri.startsWith(RESULT_URI_PREFIX)) return readServedResult(executor, uri, { sessionId }, signal);
 */
export async function readServedResult(executor: Executor, uri: string, caller: CallerInfo, signal: AbortSignal): Promise<ReadResourceResult> {
  let args: Record<string, unknown>;
  try {
    args = readArguments(uri);
  } catch {
    throw protocolError(ErrorCode.InvalidParams, `Not a stored result's URI: ${uri}; expected ${RESULT_URI_PREFIX}r_…`);
  }
  const read = await executor.callTool("read_result", args, { signal, caller });
  if (!read.ok) {
    throw protocolError(read.error.code === "RESULT_NOT_FOUND" ? RESOURCE_NOT_FOUND : ErrorCode.InvalidParams, `${read.error.code}: ${read.error.message}`);
  }
  const page = read.value as { text?: string; value?: unknown };
  if (page.text !== undefined) return { contents: [{ uri, mimeType: "text/plain", text: page.text }] };
  if (isBlob(page.value)) return { contents: [{ uri, mimeType: page.value.mimeType, blob: page.value.data ?? page.value.blob! }] };
  return { contents: [{ uri, mimeType: "application/json", text: JSON.stringify(page.value) }] };
}
