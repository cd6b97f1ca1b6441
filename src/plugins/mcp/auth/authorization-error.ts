/** An error of the OAuth flow in one line a person can act on, without response bodies. */
import { OAuthError } from "@modelcontextprotocol/sdk/server/auth/errors.js";

const MAX_LENGTH = 200;

/**
 * @example
 * describeAuthorizationError(new InvalidGrantError("refresh token revoked"));
 * // "the authorization server refused: invalid_grant (refresh token revoked)"
 */
export function describeAuthorizationError(error: unknown): string {
  if (error instanceof OAuthError) {
    const text = error.message ? ` (${firstLine(error.message)})` : "";
    return `the authorization server refused: ${error.errorCode}${text}`;
  }
  return `authorization failed: ${firstLine((error as Error)?.message ?? String(error))}`;
}

function firstLine(text: string): string {
  const line = text.split("\n")[0]!.trim();
  return line.length > MAX_LENGTH ? `${line.slice(0, MAX_LENGTH - 3)}...` : line;
}
