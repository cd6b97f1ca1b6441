/**
 * A server name for any mcp.json key. Claude Desktop and Cursor accept any JSON key ("Brave Search",
 * "Café API"); toolexec serves such a server's tools under a safe name derived from it, lowercase
 * words joined by `_`, which code mode can also write as `tools.brave_search.<tool>`.
 */
import { MAX_SERVER_NAME_LENGTH, SERVER_NAME_PATTERN } from "../../../core/tool-names.js";

/**
 * The key itself when it is a valid server name, else a valid name derived from it.
 *
 * @example
 * deriveServerName("github"); // "github"
 * deriveServerName("Brave Search"); // "brave_search"
 * deriveServerName("Café / API"); // "cafe_api"
 */
export function deriveServerName(key: string): string {
  if (SERVER_NAME_PATTERN.test(key)) return key;
  const derived = key
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+/, "")
    .slice(0, MAX_SERVER_NAME_LENGTH)
    .replace(/_+$/, "");
  return derived === "" ? "server" : derived;
}
