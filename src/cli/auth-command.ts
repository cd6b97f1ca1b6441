/**
 * `toolexec auth login | status | logout`: log in to an OAuth MCP server (print the authorization
 * URL, take the redirect on the loopback redirect URI, finish the exchange), show which servers hold
 * tokens, forget a server's tokens. Tokens live in the user's config folder (docs/auth.md).
 */
import type { McpServerInfo } from "../mcp.js";
import type { CommandContext } from "./command-context.js";
import { listenForRedirect } from "./loopback-redirect.js";
import { selectProjectFiles } from "./project-options.js";
import { CliError, UsageError } from "./usage-error.js";
import { withExecutor } from "./with-executor.js";

/** How long `auth login` waits for the person by default. */
const DEFAULT_LOGIN_TIMEOUT_MS = 300_000;

/** The parser has checked that the `<server>` positional is there. */
const serverArgument = (context: CommandContext): string => context.positionals[0]!;

function loginTimeout(context: CommandContext): number {
  const text = context.values.timeout;
  if (text === undefined) return DEFAULT_LOGIN_TIMEOUT_MS;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new UsageError(`Expected --timeout to be a whole number of milliseconds, got ${JSON.stringify(text)}`, context.command);
  return value;
}

const toolCount = (server: McpServerInfo) => `${server.tools.length} tool${server.tools.length === 1 ? "" : "s"}`;

/** `--as <principal>`: whose login on a per-user server; `--store`: where tokens live (a shared store seals them). */
function loginTarget(context: CommandContext): { options: { principal?: string }; store: { store?: string }; whose: string } {
  const principal = context.values.as;
  const store = context.values.store;
  return {
    options: principal === undefined ? {} : { principal },
    store: store === undefined ? {} : { store },
    whose: principal === undefined ? "" : ` as ${principal}`,
  };
}

export async function runAuthLogin(context: CommandContext): Promise<number> {
  const server = serverArgument(context);
  const timeoutMs = loginTimeout(context);
  const { options, store, whose } = loginTarget(context);
  const project = selectProjectFiles(context.values, context.cwd, context.command);
  return withExecutor(context, project, { logDir: false, mcp: { servers: [server] }, ...store }, async (executor, signal) => {
    const started = await executor.startServerLogin(server, options);
    if (!started.ok) throw new CliError(`${started.error.code}: ${started.error.message}`);
    if (started.authorized) {
      context.output.out(`Already logged in to "${server}"${whose} (${started.server.state}, ${toolCount(started.server)}).`);
      return 0;
    }
    const redirect = await listenForRedirect(new URL(started.redirectUrl), signal, timeoutMs);
    context.output.out(`Open this URL to log in to "${server}"${whose}:\n  ${started.url}\nWaiting for the redirect on ${started.redirectUrl} …`);
    const outcome = await redirect.received;
    if ("error" in outcome) throw new CliError(`The authorization server sent no code: ${outcome.error}`);
    const finished = await executor.finishServerLogin(server, outcome, options);
    if (!finished.ok) throw new CliError(`${finished.error.code}: ${finished.error.message}`);
    const state = finished.server.state === "connected" ? `it is connected with ${toolCount(finished.server)}` : `its state is ${finished.server.state}`;
    context.output.out(`Logged in to "${server}"${whose}; ${state}.`);
    return 0;
  });
}

const AUTHORIZATION_LABELS = { authorized: "authorized", "needs-login": "needs login", unknown: "not asked yet" } as const;

export async function runAuthStatus(context: CommandContext): Promise<number> {
  const project = selectProjectFiles(context.values, context.cwd, context.command);
  const servers = await withExecutor(context, project, { logDir: false }, async (executor) => executor.servers().filter((server) => server.authorization !== undefined));
  if (context.values.json) {
    context.output.out(JSON.stringify(servers.map(({ name, state, authorization }) => ({ name, state, authorization })), null, 2));
  } else if (servers.length === 0) {
    context.output.out("No OAuth servers (http / sse servers without an Authorization header or \"oauth\": false).");
  } else {
    const width = Math.min(32, Math.max(...servers.map((server) => server.name.length)));
    for (const server of servers) context.output.out(`${server.name.padEnd(width)}  ${AUTHORIZATION_LABELS[server.authorization!].padEnd(13)}  ${server.state}`);
  }
  // 1 while a server needs a login, so scripts can check.
  return servers.some((server) => server.authorization === "needs-login") ? 1 : 0;
}

export async function runAuthLogout(context: CommandContext): Promise<number> {
  const server = serverArgument(context);
  const { options, store, whose } = loginTarget(context);
  const project = selectProjectFiles(context.values, context.cwd, context.command);
  const forgotten = await withExecutor(context, project, { logDir: false, mcp: { servers: [server], startupTimeoutMs: 0 }, ...store }, async (executor) => {
    if (!executor.servers().some((candidate) => candidate.name === server)) throw new CliError(`No MCP server named "${server}" in the config`);
    return executor.logoutServer(server, options);
  });
  if (!forgotten) throw new CliError(`Server "${server}" does not use OAuth${options.principal === undefined ? "" : " per principal"}: nothing to forget`);
  context.output.out(`Logged out of "${server}"${whose}: its tokens and registered client are forgotten.`);
  return 0;
}
