/**
 * Why a `server__tool` name is not in the registry when its server is configured but down: the
 * tools of a server that is connecting, retrying, failed or disabled are not listed, and "no tool
 * named ghost__x" would send the caller looking for a typo instead of at the server.
 */
import type { ToolErrorInfo } from "../../core/plugin-contract.js";
import type { McpServerInfo } from "./server-info.js";
import { exposedNamePrefix } from "./tool-definitions.js";
import { cliInvocation } from "../../core/cli-invocation.js";

const seconds = (ms: number) => `${Math.max(0, ms / 1000).toFixed(1)} s`;

/** Why `server` serves nothing now, as the end of a sentence. */
function describeState(server: McpServerInfo, now: number): string {
  const subject = `server "${server.name}"`;
  const message = server.lastError?.message;
  // Last errors begin with `Server "name" …`: said once, the sentence reads as one.
  const own = `Server "${server.name}" `;
  const why = message === undefined ? undefined : message.startsWith(own) ? `${subject} ${message.slice(own.length)}` : undefined;
  switch (server.state) {
    case "failed":
      return why ?? `${subject} failed${message === undefined ? "" : `: ${message}`}`;
    case "retrying": {
      const next = server.nextAttemptAt === undefined ? "" : `; next attempt in ${seconds(server.nextAttemptAt - now)}`;
      return `${why ?? `${subject} is not reachable${message === undefined ? "" : `: ${message}`}`}${next}`;
    }
    case "needs-login":
      if (server.perUser) return `${subject} signs in each caller on its own and the caller has no login there: run \`${cliInvocation()} auth login ${server.name} --as <principal>\``;
      return `${subject} needs login: run \`${cliInvocation()} auth login ${server.name}\``;
    case "connecting":
      return `${subject} is still connecting; its tools are listed once it is up`;
    case "installing":
      return `${subject} is still starting for the first time (its package runner may be downloading it); its tools are listed once it is up`;
    case "unavailable":
      return why ?? `${subject} is unavailable${message === undefined ? "" : `: ${message}`}`;
    default:
      return `${subject} is disabled ("enabled": false or "disabled": true in mcp.json)`;
  }
}

/**
 * The error for a call of `name` when it belongs to a configured server that is not connected, or
 * `undefined` when it belongs to none (a typo, or a tool its connected server does not have: the
 * pipeline's `TOOL_NOT_FOUND` with its closest-name hint fits those). A name belongs to the server
 * with the longest exposed prefix it starts with (`a__b__x` is server `a__b`'s, not `a`'s).
 *
 * @example
 * explainMissingServerTool("ghost__x", executorServers);
 * // { code: "SERVICE_UNAVAILABLE", message: 'Cannot call "ghost__x": server "ghost" could not be started: spawn no-such-mcp-server ENOENT', details: { server: "ghost", state: "failed", lastError, nextAttemptAt } }
 */
export function explainMissingServerTool(name: string, servers: readonly McpServerInfo[], now = Date.now()): ToolErrorInfo | undefined {
  let owner: McpServerInfo | undefined;
  let ownerPrefix = 0;
  for (const server of servers) {
    // An unprefixed server's tool names say nothing of it; a miss is a plain TOOL_NOT_FOUND.
    if (server.prefix === false) continue;
    const prefix = exposedNamePrefix(server.name);
    if (!name.startsWith(prefix)) continue;
    // Same prefix (`my server` and `my_server`): one that is down explains the miss, a connected one does not.
    if (prefix.length > ownerPrefix || (prefix.length === ownerPrefix && owner?.state === "connected")) {
      owner = server;
      ownerPrefix = prefix.length;
    }
  }
  // A server that is up, or stopped with its tools listed (lazy, idle), does not explain a miss: the name is not one of its tools.
  if (owner === undefined || owner.state === "connected" || owner.state === "stopped" || owner.state === "idle") return undefined;
  const code = owner.state === "needs-login" ? "AUTH_REQUIRED" : owner.state === "failed" && owner.lastError?.code === "SERVER_NOT_ALLOWED" ? "SERVER_NOT_ALLOWED" : "SERVICE_UNAVAILABLE";
  return {
    code,
    message: `Cannot call "${name}": ${describeState(owner, now)}`,
    details: {
      server: owner.name,
      state: owner.state,
      ...(owner.lastError === undefined ? {} : { lastError: owner.lastError }),
      ...(owner.nextAttemptAt === undefined ? {} : { nextAttemptAt: owner.nextAttemptAt }),
    },
  };
}
