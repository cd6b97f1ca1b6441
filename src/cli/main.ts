#!/usr/bin/env node
/**
 * The `toolexec` command: a thin front door over the library's public entry, which it loads only
 * once a command runs (help and usage errors answer without it).
 * Exit codes: 0 success, 1 a call failed or the config is invalid, 2 wrong usage, 130 interrupted.
 */
import path from "node:path";
import type { CommandContext, Output } from "./command-context.js";
import { formatCommandHelp, formatGlobalHelp, formatGroupHelp } from "./help-text.js";
import { parseCommandLine, type CommandLine } from "./parse-command-line.js";
import { readStdin } from "./read-input.js";
import { createStatusLine, type StatusLine } from "./status-line.js";
import { CliError, UsageError } from "./usage-error.js";

/** Output that erases the progress line before each line it prints (the line comes back at its next redraw). */
function erasingStatus(output: Output, status: StatusLine): Output {
  return {
    out(text) {
      status.clear();
      output.out(text);
    },
    err(text) {
      status.clear();
      output.err(text);
    },
  };
}

/** One usage mistake: the message, then where to read the command's usage. */
function formatUsageError(error: UsageError): string {
  const command = error.command === undefined ? "" : ` ${error.command}`;
  return `toolexec${command}: ${error.message}\nRun \`toolexec${command} --help\` for usage and examples.`;
}

async function runCommand(line: Extract<CommandLine, { kind: "run" }>, context: CommandContext): Promise<number> {
  switch (line.command.name) {
    case "init":
      return (await import("./init-command.js")).runInit(context);
    case "validate":
      return (await import("./validate-command.js")).runValidate(context);
    case "tools list":
      return (await import("./tools-command.js")).runToolsList(context);
    case "tools call":
      return (await import("./tools-command.js")).runToolsCall(context);
    case "tools search":
      return (await import("./tools-search-command.js")).runToolsSearch(context);
    case "tools review":
      return (await import("./tools-trust-command.js")).runToolsReview(context);
    case "tools approve":
      return (await import("./tools-trust-command.js")).runToolsApprove(context);
    case "tools revoke":
      return (await import("./tools-trust-command.js")).runToolsRevoke(context);
    case "servers":
      return (await import("./servers-command.js")).runServers(context);
    case "logs":
      return (await import("./logs-command.js")).runLogs(context);
    case "code exec":
      return (await import("./code-command.js")).runCodeExec(context);
    case "serve":
      return (await import("./serve-command.js")).runServe(context);
    case "auth login":
      return (await import("./auth-command.js")).runAuthLogin(context);
    case "auth status":
      return (await import("./auth-command.js")).runAuthStatus(context);
    case "python sync":
      return (await import("./python-command.js")).runPythonSync(context);
    case "python envs":
      return (await import("./python-command.js")).runPythonEnvs(context);
    case "keys create":
      return (await import("./keys-command.js")).runKeysCreate(context);
    case "keys list":
      return (await import("./keys-command.js")).runKeysList(context);
    case "keys revoke":
      return (await import("./keys-command.js")).runKeysRevoke(context);
    case "auth logout":
      return (await import("./auth-command.js")).runAuthLogout(context);
    default:
      throw new Error(`No handler for command "${line.command.name}"`);
  }
}

/** Run the CLI with `argv` (without node and script); returns the exit code. */
export async function runCli(argv: string[], output: Output): Promise<number> {
  let line: CommandLine;
  try {
    line = parseCommandLine(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    output.err(formatUsageError(error));
    return 2;
  }
  if (line.kind === "version") {
    const { createRequire } = await import("node:module");
    output.out((createRequire(import.meta.url)("../../package.json") as { version: string }).version);
    return 0;
  }
  if (line.kind === "help") {
    if (line.missingCommand) {
      output.err(line.group ? formatGroupHelp(line.group) : formatGlobalHelp());
      return 2;
    }
    output.out(line.command ? formatCommandHelp(line.command) : line.group ? formatGroupHelp(line.group) : formatGlobalHelp());
    return 0;
  }
  // A command that only reads files (`logs`) answers without loading the library: on a busy machine that is most of its time.
  const library = line.command.standalone ? undefined : await import("../index.js");
  const status = output.terminal && !line.values.json ? createStatusLine(output.terminal) : undefined;
  if (status) output = erasingStatus(output, status);
  // Before the command's executor exists: its instruments come from the meter provider registered here.
  const { startCliTelemetry } = await import("./start-telemetry.js");
  const telemetry = await startCliTelemetry({ serving: line.command.name === "serve" && line.values.http === true }, process.env, output);
  const context: CommandContext = { command: line.command.name, values: line.values, positionals: line.positionals, library: library!, output, cwd: process.cwd(), readStdin, ...(status ? { status } : {}), ...(telemetry.metrics ? { metrics: telemetry.metrics } : {}) };
  try {
    return await runCommand(line, context);
  } catch (error) {
    if (error instanceof UsageError) {
      output.err(formatUsageError(error));
      return 2;
    }
    if (error instanceof CliError) {
      output.err(`toolexec ${line.command.name}: ${error.message}`);
      return 1;
    }
    if (library?.isConfigError(error)) {
      const { displayIssues, formatIssues } = await import("./format.js");
      // The folder the issues' file names are relative to.
      const root = path.resolve(context.cwd, line.values.root ?? ".");
      if (line.values.json) output.out(JSON.stringify({ ok: false, error: { code: error.code, message: error.message, issues: displayIssues(error.issues, root) } }, null, 2));
      else output.err(`${error.code === "CONFIG_MISSING" ? "Config file missing" : "Invalid config"}:\n${formatIssues(error.issues, root)}`);
      return 1;
    }
    if (library?.isToolexecError(error)) {
      output.err(`error ${error.code}: ${error.message}`);
      return 1;
    }
    throw error;
  } finally {
    status?.hide();
    await telemetry.shutdown();
  }
}

/** Run the CLI as this process: its arguments, stdout and stderr; the exit code becomes the process's. */
export async function runCliProcess(): Promise<void> {
  const terminal = process.stderr.isTTY && process.env.TERM !== "dumb" ? { write: (text: string) => void process.stderr.write(text), columns: () => process.stderr.columns || 80 } : undefined;
  process.exitCode = await runCli(process.argv.slice(2), {
    out: (text) => process.stdout.write(`${text}\n`),
    err: (text) => process.stderr.write(`${text}\n`),
    ...(terminal ? { terminal } : {}),
  });
}

// `node dist/cli/main.js …` still runs the CLI. The published executable is bin.ts (bundled to
// dist/bin/toolexec.js), which runs it unconditionally: in the bundle, this module's import.meta.url
// still names dist/cli/main.js (scripts/bundle-cli.mjs keeps each module's own URL), so this is false there.
const isMain = process.argv[1] !== undefined && import.meta.url === (await import("node:url")).pathToFileURL((await import("node:fs")).realpathSync(process.argv[1])).href;
if (isMain) await runCliProcess();
