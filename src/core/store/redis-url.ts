/** A redis:// store URL, checked: what the client connects to, the key prefix, and a credential-free location. */
import { ToolexecError } from "../errors/toolexec-error.js";

/** Keys and the change channel live under this prefix unless the URL's `?prefix=` says otherwise. */
export const DEFAULT_REDIS_PREFIX = "toolexec:";

export interface ParsedRedisUrl {
  /** The URL for the client, without toolexec's own `prefix` parameter. */
  clientUrl: string;
  prefix: string;
  /** For logs and errors: no user or password. */
  location: string;
}

/**
 * @example
 * parseRedisUrl("redis://:secret@cache:6379/2?prefix=team-a:");
 * // { clientUrl: "redis://:secret@cache:6379/2", prefix: "team-a:", location: "redis://cache:6379/2" }
 */
export function parseRedisUrl(url: string): ParsedRedisUrl {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalid(url, "not a URL");
  }
  if (parsed.protocol !== "redis:" && parsed.protocol !== "rediss:") throw invalid(url, `expected redis:// or rediss://, got ${parsed.protocol}//`);
  if (parsed.hostname === "") throw invalid(url, "no host");
  const database = parsed.pathname.replace(/^\//, "");
  if (database !== "" && !/^\d+$/.test(database)) throw invalid(url, `the database must be a number, got "${database}"`);
  const prefix = parsed.searchParams.get("prefix") ?? DEFAULT_REDIS_PREFIX;
  parsed.searchParams.delete("prefix");
  const unknown = [...parsed.searchParams.keys()];
  if (unknown.length > 0) throw invalid(url, `unknown parameter ${unknown.map((name) => `"${name}"`).join(", ")} (only "prefix" is read)`);
  const location = `${parsed.protocol}//${parsed.host}/${database || "0"}`;
  return { clientUrl: `${parsed.protocol}//${parsed.username || parsed.password ? `${parsed.username}:${parsed.password}@` : ""}${parsed.host}/${database || "0"}`, prefix, location };
}

function invalid(url: string, why: string): ToolexecError {
  // The URL may hold a password: name only its shape.
  const shown = url.replace(/\/\/[^@/]*@/, "//***@");
  return new ToolexecError("INVALID_OPTIONS", `Invalid store URL ${shown}: ${why} (expected redis://[user:password@]host:port/db[?prefix=name])`);
}
