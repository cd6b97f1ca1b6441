/**
 * What went wrong with one request or connection attempt, in the terms the retry rules need:
 * was the request certainly not processed (safe to send again), or may it have run?
 */
import type { ErrorCode } from "../../core/errors/error-codes.js";
import { isToolexecError } from "../../core/errors/toolexec-error.js";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { OAuthError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import { cliInvocation } from "../../core/cli-invocation.js";

export type FailureKind =
  /** The server certainly did not process the request (refused connection, 503, lost session): any call may be retried. */
  | "not-sent"
  /** The request was sent and the connection died before the answer: only read-only or idempotent calls may be retried. */
  | "lost"
  /** The server answered with an error (JSON-RPC error, HTTP 4xx): retrying would not help. */
  | "remote"
  /** The server sent something that is not MCP; the connection is reset. */
  | "malformed"
  /** The answer exceeded `maxResponseBytes`. */
  | "too-large"
  /** The server cannot be used until its config changes (command not found, 401, refused address). */
  | "permanent"
  /** The call's own signal aborted (deadline, cancel, close). */
  | "aborted";

export interface SessionFailure {
  kind: FailureKind;
  /** One line for people; names the server. */
  message: string;
  /** The code a call reports when this failure ends it; `SERVICE_UNAVAILABLE` unless said otherwise. */
  code?: ErrorCode;
  /** The server asked to wait this long (HTTP `Retry-After`). */
  retryAfterMs?: number;
  /** The session is gone: reconnect before retrying. */
  sessionLost?: boolean;
  details?: Record<string, unknown>;
}

/** What is known about a request besides the error the SDK threw. */
export interface FailureContext {
  server: string;
  /** The HTTP status of the POST that carried the request, when one came back. */
  httpStatus?: number;
  retryAfterMs?: number;
}

const NOT_CONNECTED_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "UND_ERR_CONNECT_TIMEOUT", "ETIMEDOUT"]);
/** SDK's `ErrorCode.ConnectionClosed`; its text tells it apart from servers' own -32000 errors. */
const CONNECTION_CLOSED = -32000;
const REQUEST_TIMEOUT = -32001;

/**
 * The first network error code in an error's cause chain (`fetch failed` → `ECONNREFUSED`), or in
 * its text: the SDK's legacy SSE error keeps only the text (`SSE error: TypeError: fetch failed:
 * connect ECONNREFUSED 127.0.0.1:8080`).
 */
export function networkCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string") return code;
    current = (current as { cause?: unknown }).cause;
  }
  const message = (error as { message?: unknown } | undefined)?.message;
  if (typeof message !== "string") return undefined;
  return [...NOT_CONNECTED_CODES].find((code) => new RegExp(`\\b${code}\\b`).test(message));
}

/** A message from the server that is not JSON-RPC; its text says what was wrong. */
export class MalformedMessageError extends Error {
  override name = "MalformedMessageError";
}

/** The start of a raw message, for an error text. */
export function excerpt(text: string, length = 80): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > length ? `${flat.slice(0, length - 3)}...` : flat;
}

/** What keeps a parsed value from being a JSON-RPC message, in words. */
export function describeJsonRpcProblem(value: unknown): string {
  if (Array.isArray(value)) return "a JSON array, not a JSON-RPC message";
  if (typeof value !== "object" || value === null) return `JSON ${value === null ? "null" : typeof value}, not a JSON-RPC message`;
  const message = value as Record<string, unknown>;
  if (message.jsonrpc !== "2.0") return `"jsonrpc" is ${message.jsonrpc === undefined ? "missing" : JSON.stringify(message.jsonrpc)}, not "2.0"`;
  if ("method" in message && typeof message.method !== "string") return `"method" is not a string`;
  if ("id" in message && typeof message.id !== "string" && typeof message.id !== "number") return `"id" is ${JSON.stringify(message.id)}, not a string or number`;
  if (!("method" in message) && !("result" in message) && !("error" in message)) return `it has no "method", "result" or "error"`;
  if (!("method" in message) && !("id" in message)) return `a response without an "id"`;
  if ("error" in message) return `"error" is not { code: number, message: string }`;
  return "it does not match the JSON-RPC message shapes";
}

/** A zod error (the SDK checking a message or a result) in one line: where, and what. */
export function describeZodError(error: Error): string {
  const issues = (error as { issues?: Array<{ path?: PropertyKey[]; message?: string; code?: string; errors?: unknown }> }).issues;
  if (!Array.isArray(issues) || issues.length === 0) return firstLine(error.message);
  const described = issues.slice(0, 2).map((issue) => {
    const where = issue.path && issue.path.length > 0 ? issue.path.map(String).join(".") : "the message";
    return `${where}: ${issue.message ?? issue.code ?? "invalid"}`;
  });
  return `${described.join("; ")}${issues.length > 2 ? ` (and ${issues.length - 2} more)` : ""}`;
}

/** The HTTP status a transport error carries: `StreamableHTTPError.code`, or `(HTTP 503)` in legacy SSE's text. */
function httpStatusOf(error: Error): number | undefined {
  if (error.name === "StreamableHTTPError" || error.constructor?.name === "StreamableHTTPError") {
    const code = (error as { code?: unknown }).code;
    if (typeof code === "number" && code >= 100) return code;
  }
  const match = /\(HTTP (\d{3})\)/.exec(error.message);
  return match ? Number(match[1]) : undefined;
}

/** JSON that does not parse, or JSON that is not JSON-RPC (zod's verdict). */
export function isMalformedMessageError(error: unknown): boolean {
  return error instanceof SyntaxError || error instanceof MalformedMessageError || (error as Error)?.name === "ZodError" || (error as Error)?.name === "$ZodError";
}

/**
 * Classify an error from a request or a connection attempt.
 *
 * @example
 * classifyError(new TypeError("fetch failed", { cause: { code: "ECONNREFUSED" } }), { server: "docs" });
 * // { kind: "not-sent", sessionLost: true, message: 'Server "docs" is unreachable (ECONNREFUSED)', ... }
 */
export function classifyError(error: unknown, context: FailureContext): SessionFailure {
  const server = `Server "${context.server}"`;
  if (isToolexecError(error)) {
    if (error.code === "SERVER_NOT_ALLOWED") return { kind: "permanent", code: "SERVER_NOT_ALLOWED", message: error.message, details: error.details };
    if (error.code === "CONFIG_INVALID") return { kind: "permanent", message: error.message, details: error.details };
    if (error.code === "OUTPUT_TOO_LARGE") return { kind: "too-large", code: "OUTPUT_TOO_LARGE", message: error.message, details: error.details };
    return { kind: "lost", code: error.code, message: error.message };
  }
  const failure = error instanceof Error ? error : new Error(String(error));
  // The SDK's auth flow needs a person (no token, a refused refresh, more scope) or was refused.
  if (failure instanceof UnauthorizedError || failure instanceof OAuthError) {
    const why = failure instanceof OAuthError ? `: ${describeAuthorizationError(failure)}` : "";
    return { kind: "permanent", code: "AUTH_REQUIRED", message: `${server} needs login${why}; run \`${cliInvocation()} auth login ${context.server}\``, details: { login: `${cliInvocation()} auth login ${context.server}` } };
  }
  if (isMalformedMessageError(failure)) {
    return { kind: "malformed", code: "INVALID_OUTPUT", message: `${server} sent a reply that is not valid MCP: ${describeMalformed(failure)}`, sessionLost: !/ZodError$/.test(failure.name) };
  }
  // Streamable HTTP: a 2xx that is neither JSON nor an event stream (an HTML login page, a proxy's notice).
  const contentType = /Unexpected content type: (.*)$/.exec(failure.message);
  if (contentType) {
    return { kind: "malformed", code: "INVALID_OUTPUT", sessionLost: true, message: `${server} answered with ${contentType[1] || "no content type"}, not JSON or an event stream`, details: { contentType: contentType[1] } };
  }
  const rpcCode = (failure as { code?: unknown }).code;
  if (failure.name === "McpError" && typeof rpcCode === "number") {
    if (rpcCode === CONNECTION_CLOSED && /Connection closed$/.test(failure.message)) return { kind: "lost", sessionLost: true, message: `${server} closed the connection` };
    if (rpcCode === REQUEST_TIMEOUT) return { kind: "aborted", code: "TIMEOUT", message: `${server} did not answer in time` };
    return { kind: "remote", code: "TOOL_FAILED", message: `${server} answered with an error: ${failure.message.replace(/^MCP error -?\d+: /, "")}`, details: { rpcCode } };
  }
  const status = context.httpStatus ?? httpStatusOf(failure);
  if (status !== undefined) return classifyStatus(status, failure, context);
  const code = networkCode(failure);
  if (code === "ENOENT" || code === "EACCES") return { kind: "permanent", message: `${server} could not be started: ${failure.message}`, details: { errno: code } };
  if (code !== undefined && NOT_CONNECTED_CODES.has(code)) return { kind: "not-sent", sessionLost: true, message: `${server} is unreachable (${code})` };
  if (failure.message === "Not connected") return { kind: "not-sent", sessionLost: true, message: `${server} is not connected` };
  if (failure.name === "AbortError") return { kind: "lost", sessionLost: true, message: `${server}'s connection was closed` };
  return { kind: "lost", sessionLost: true, message: `${server}'s connection failed: ${firstLine(failure.message)}${code ? ` (${code})` : ""}` };
}

function classifyStatus(status: number, failure: Error, context: FailureContext): SessionFailure {
  const server = `Server "${context.server}"`;
  const details = { httpStatus: status };
  if (status === 429 || status === 503) {
    const wait = context.retryAfterMs === undefined ? "" : `; it asked to retry after ${context.retryAfterMs} ms`;
    return { kind: "not-sent", message: `${server} is busy (HTTP ${status})${wait}`, retryAfterMs: context.retryAfterMs, details: { ...details, retryAfterMs: context.retryAfterMs } };
  }
  // A lost session: 404 from the SDK's servers, 400 "no valid session ID" from others. Not processed.
  if (status === 404 || (status === 400 && /session/i.test(failure.message))) {
    return { kind: "not-sent", sessionLost: true, message: `${server} no longer knows this session (HTTP ${status})`, details };
  }
  if (status === 401 || status === 403) {
    // The SDK keeps a client (configured or stored) to the authorization server it belongs to.
    const boundElsewhere = /bound to authorization server (\S+) and is not presented to (\S+?)\.(?:\s|$)/.exec(failure.message);
    if (boundElsewhere) {
      const [, own, named] = boundElsewhere;
      const message = `${server} has its client for the authorization server ${own}, and does not present it to ${named} (the one the server names now); the credentials were not sent. If the authorization server has moved, correct "oauth.issuer" in mcp.json (or run \`${cliInvocation()} auth logout ${context.server}\` for a stored client)`;
      return { kind: "permanent", message, details };
    }
    return { kind: "permanent", message: `${server} refused the credentials (HTTP ${status}): ${firstLine(failure.message)}; check the headers (or oauth settings) in mcp.json`, details };
  }
  if (status >= 500) return { kind: "lost", message: `${server} failed with HTTP ${status}: ${firstLine(failure.message)}`, details };
  return { kind: "remote", code: "TOOL_FAILED", message: `${server} rejected the request with HTTP ${status}: ${firstLine(failure.message)}`, details };
}

/** What was wrong with a malformed message, in one line. */
export function describeMalformed(error: Error): string {
  return /ZodError$/.test(error.name) ? describeZodError(error) : firstLine(error.message);
}

/** The first line of a text, at most 300 characters. */
const firstLine = (text: string) => {
  const line = text.split("\n")[0]!.trim();
  return line.length > 300 ? `${line.slice(0, 297)}...` : line;
};

/**
 * An error of the OAuth flow in one line a person can act on: the authorization server's OAuth
 * error code and description, never a response body.
 *
 * @example
 * describeAuthorizationError(new InvalidGrantError("refresh token revoked"));
 * // "the authorization server refused: invalid_grant (refresh token revoked)"
 */
export function describeAuthorizationError(error: unknown): string {
  if (error instanceof OAuthError) return `the authorization server refused: ${error.errorCode}${error.message ? ` (${firstLine(error.message)})` : ""}`;
  return `authorization failed: ${firstLine((error as Error)?.message ?? String(error))}`;
}
