/**
 * toolexec's folder in the user's cache: what it can rebuild at any time, shared by every project
 * of the user on this machine (Python environments, the code runtime's compiled SES).
 */
import os from "node:os";
import path from "node:path";

/**
 * `$XDG_CACHE_HOME/toolexec`, `~/.cache/toolexec` (Linux), `~/Library/Caches/toolexec` (macOS),
 * `%LOCALAPPDATA%\toolexec` (Windows).
 *
 * @example
 * userCacheFolder(); // "/home/ada/.cache/toolexec"
 */
export function userCacheFolder(environment: Readonly<Record<string, string | undefined>> = process.env): string {
  if (process.platform === "win32" && environment["LOCALAPPDATA"]) return path.join(environment["LOCALAPPDATA"], "toolexec");
  if (process.platform === "darwin") return path.join(os.homedir(), "Library", "Caches", "toolexec");
  const xdg = environment["XDG_CACHE_HOME"];
  return path.join(xdg && path.isAbsolute(xdg) ? xdg : path.join(os.homedir(), ".cache"), "toolexec");
}
