/**
 * `toolexec serve`: the project's tools as an MCP server. Over stdio (the default) stdout carries
 * nothing but protocol (diagnostics go to stderr) and the command ends when the client closes its
 * input; over HTTP it prints the URL and ends on SIGINT/SIGTERM, letting calls under way finish.
 * Hot reload stays on: edits reach connected clients as list_changed.
 */
import type { CommandContext } from "./command-context.js";
import { selectProjectFiles } from "./project-options.js";
import { resolveLogDir } from "./log-location.js";
import { parseWholeNumber } from "./read-input.js";
import { limitYoungGeneration, SERVE_YOUNG_GENERATION_BYTES } from "./serve-young-generation.js";
import { CliError, UsageError } from "./usage-error.js";

const NO_CLIENT_CAN_ANSWER = "no client can answer this request: the client whose call is under way did not declare the capability, or calls of several clients are under way on this server";

function parsePort(text: string | undefined, command: string): number | undefined {
  if (text === undefined) return undefined;
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new UsageError(`--port expects a whole number from 0 to 65535, got ${JSON.stringify(text)}`, command);
  return port;
}

/** A secret from the environment variable a flag names; never from the command line itself. */
function secretFromEnvironment(flag: string, variable: string | undefined): string | undefined {
  if (variable === undefined) return undefined;
  const secret = process.env[variable];
  if (!secret) throw new CliError(`--${flag} ${variable}: that environment variable is not set (or empty)`);
  return secret;
}

/** A clear one-line error for a port that cannot be listened on, instead of Node's stack trace. */
function listenError(error: unknown, host: string, port: number | undefined): CliError | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  const where = `${host}:${port ?? 0}`;
  if (code === "EADDRINUSE") return new CliError(`Cannot listen on ${where}: the port is already in use; stop what uses it or pick another port with --port`);
  if (code === "EACCES") return new CliError(`Cannot listen on ${where}: permission denied (ports below 1024 need privileges); pick another port with --port`);
  if (code === "EADDRNOTAVAIL") return new CliError(`Cannot listen on ${where}: this machine has no such address; pick another --host`);
  return undefined;
}

export async function runServe(context: CommandContext): Promise<number> {
  const { values, command, output } = context;
  if (values.stdio && values.http) throw new UsageError("Give either --stdio or --http, not both", command);
  if (!values.http) {
    for (const flag of ["host", "port", "token-env", "stateless", "api-key-env", "max-sessions", "console", "oauth-issuer", "oauth-audience"] as const) {
      if (values[flag] !== undefined) throw new UsageError(`--${flag} applies to --http only`, command);
    }
  }
  if ((values["oauth-issuer"] === undefined) !== (values["oauth-audience"] === undefined)) throw new UsageError("--oauth-issuer and --oauth-audience go together: tokens are checked for both", command);
  const port = parsePort(values.port, command);
  const maxSessions = parseWholeNumber(values["max-sessions"], "--max-sessions", 1, command);
  const maxConcurrency = parseWholeNumber(values["max-concurrency"], "--max-concurrency", 1, command);
  const token = secretFromEnvironment("token-env", values["token-env"]);
  const apiKey = secretFromEnvironment("api-key-env", values["api-key-env"]);
  const project = selectProjectFiles(values, context.cwd, command);
  // Before the executor's start-up allocates (see serve-young-generation.ts).
  limitYoungGeneration(SERVE_YOUNG_GENERATION_BYTES);
  const logDir = resolveLogDir(values, context.cwd);
  // The executor first: its code plugin spawns the pre-started runtime, which then starts on the other
  // core while this one loads the MCP server's modules (the SDK's server, its zod types and ajv).
  const executor = await context.library.createExecutor({
    root: project.root,
    logDir,
    toolsConfig: project.toolsConfig,
    mcpConfig: project.mcpConfig,
    ...(values.store === undefined ? {} : { store: values.store }),
    ...(maxConcurrency === undefined ? {} : { maxConcurrency }),
    ...(values.strict === true ? { strict: true } : {}),
    ...(values["search-first"] === true ? { toolSearch: { searchFirst: true } } : {}),
    // A long-running front door whose clients call a few of many servers: stdio servers start on
    // their first call (tools listed from their last run's list), unless mcp.json says "eager".
    mcp: { start: "lazy" },
    logger: { debug() {}, info() {}, warn: (message) => output.err(`warning: ${message}`), error: (message) => output.err(`error: ${message}`) },
    // request_human_input exists while served: a client that can elicit is asked; otherwise no one can answer.
    onHumanInput: () => {
      throw new Error("this client cannot ask its user (no elicitation capability) and toolexec serve has no one else to ask");
    },
    // Upstream servers may ask (elicitation, sampling): the served client that made the call answers;
    // when it cannot, or nobody can tell whose call it was, the server gets this error.
    onElicitation: () => {
      throw new Error(`toolexec serve: ${NO_CLIENT_CAN_ANSWER} (elicitation)`);
    },
    onSampling: () => {
      throw new Error(`toolexec serve: ${NO_CLIENT_CAN_ANSWER} (sampling)`);
    },
  });
  try {
    const { serveStdio, serveHttp } = await import("../serve.js");
    if (!values.http) {
      const serving = await serveStdio(executor);
      // stdout is the protocol: the one sign of life for a person who started it by hand goes to stderr.
      output.err(`toolexec serve: serving ${project.root} over stdio (MCP on stdin and stdout); close stdin to stop`);
      await serving.closed;
      return 0;
    }
    const serving = await serveHttp(executor, {
      ...(values.host === undefined ? {} : { host: values.host }),
      ...(port === undefined ? {} : { port }),
      ...(token === undefined ? {} : { token }),
      ...(values.stateless ? { stateless: true } : {}),
      ...(apiKey === undefined ? {} : { apiKey }),
      ...(maxSessions === undefined ? {} : { maxSessions }),
      ...(context.metrics ? { metrics: context.metrics } : {}),
      ...(values.console ? { console: {} } : {}),
      ...(values["oauth-issuer"] === undefined ? {} : { oauth: { issuer: values["oauth-issuer"], audience: values["oauth-audience"]! } }),
    }).catch((error: unknown) => {
      throw listenError(error, values.host ?? "127.0.0.1", port) ?? error;
    });
    output.out(serving.url);
    if (values.console) output.err(`toolexec serve: console at ${serving.url.replace(/\/mcp$/, "")}/console`);
    await new Promise<void>((resolve) => {
      process.once("SIGINT", resolve);
      process.once("SIGTERM", resolve);
    });
    output.err("toolexec serve: stopping (calls under way may finish)");
    await serving.close();
    return 0;
  } finally {
    await executor.close();
  }
}
