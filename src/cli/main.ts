#!/usr/bin/env node
/**
 * The `toolexec` command: a thin shell over the library.
 * Exit codes: 0 success, 1 a call failed or the config is invalid, 2 wrong usage, 130 interrupted.
 */
import { readFile } from "node:fs/promises";
import { parseArgs } from "node:util";

const USAGE = `Usage: toolexec <command> [options]

Commands:
  validate                         Check tools.json and mcp.json; print every problem
  tools list [--json]              List the tools with their arguments
  tools call <name> [--args <json> | --args-file <file|->] [--timeout <ms>] [--json]
                                   Call a tool and print its result
  servers [--json]                 Connect to the MCP servers of mcp.json and show each one's state
  code exec (--code <js> | --file <file|->) [--input <json> | --input-file <file|->]
            [--timeout <ms>] [--max-tool-calls <n>] [--allowed-servers a,b] [--json]
                                   Run JavaScript in the sandbox with the project's tools

Options:
  --root <dir>   Project folder holding tools.json, mcp.json and tools/ (default: current folder)
  --json         Exact JSON output
  --help, -h     Show this help
  --version      Show the version

Exit codes: 0 success, 1 call failed or config invalid, 2 usage error, 130 interrupted.`;

class UsageError extends Error {}

type Output = { out(text: string): void; err(text: string): void };

const options = {
  root: { type: "string" },
  json: { type: "boolean" },
  args: { type: "string" },
  "args-file": { type: "string" },
  timeout: { type: "string" },
  code: { type: "string" },
  file: { type: "string" },
  input: { type: "string" },
  "input-file": { type: "string" },
  "max-tool-calls": { type: "string" },
  "allowed-servers": { type: "string" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean" },
} as const;

async function readArguments(values: { args?: string; "args-file"?: string }): Promise<unknown> {
  if (values.args !== undefined && values["args-file"] !== undefined) throw new UsageError("Give either --args or --args-file, not both");
  let text: string | undefined = values.args;
  let source = "--args";
  if (values["args-file"] !== undefined) {
    source = values["args-file"];
    try {
      text = values["args-file"] === "-" ? await readStdin() : await readFile(values["args-file"], "utf8");
    } catch (error) {
      throw new UsageError(`Cannot read --args-file ${source}: ${(error as Error).message}`);
    }
  }
  if (text === undefined) return {};
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${source} is not valid JSON: ${(error as Error).message}`);
  }
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function parseTimeout(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value <= 0) throw new UsageError(`--timeout expects a positive whole number of ms, got ${JSON.stringify(text)}`);
  return value;
}

/** Run the CLI with `argv` (without node and script); returns the exit code. */
export async function runCli(argv: string[], output: Output): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (error) {
    output.err(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.version) {
    const { createRequire } = await import("node:module");
    output.out((createRequire(import.meta.url)("../../package.json") as { version: string }).version);
    return 0;
  }
  if (values.help || positionals.length === 0) {
    output.out(USAGE);
    return values.help ? 0 : 2;
  }
  const library = await import("../index.js");
  const format = await import("./format.js");
  const root = values.root ?? process.cwd();
  const command = positionals.join(" ");
  try {
    if (positionals[0] === "validate" && positionals.length === 1) {
      const config = await library.loadProjectConfig({ root });
      if (values.json) {
        output.out(JSON.stringify({ ok: true, tools: config.entries.script.map((tool) => tool.name), servers: config.entries.mcp.map((server) => server.name), warnings: config.warnings }, null, 2));
      } else {
        output.out(`ok: ${config.entries.script.length} tool(s) in tools.json, ${config.entries.mcp.length} server(s) in mcp.json`);
        if (config.warnings.length > 0) output.err(`warnings:\n${format.formatIssues(config.warnings)}`);
      }
      return 0;
    }
    if (positionals[0] === "tools" && (positionals[1] === "list" || positionals[1] === "call")) {
      if (positionals[1] === "list" && positionals.length !== 2) throw new UsageError(`Unexpected arguments after "tools list": ${positionals.slice(2).join(" ")}`);
      if (positionals[1] === "call" && positionals.length !== 3) throw new UsageError("Usage: toolexec tools call <name> [--args <json> | --args-file <file|->]");
      const timeoutMs = parseTimeout(values.timeout);
      const args = positionals[1] === "call" ? await readArguments(values) : undefined;
      const executor = await library.createExecutor({ root, watch: false, logger: { debug() {}, info() {}, warn: (message) => output.err(`warning: ${message}`), error: (message) => output.err(`error: ${message}`) } });
      const interrupt = new AbortController();
      const onSigint = () => interrupt.abort();
      process.once("SIGINT", onSigint);
      try {
        if (positionals[1] === "list") {
          const tools = await executor.listTools();
          output.out(values.json ? JSON.stringify(tools, null, 2) : format.formatToolList(tools));
          return 0;
        }
        const result = await executor.callTool(positionals[2]!, args, { signal: interrupt.signal, ...(timeoutMs === undefined ? {} : { timeoutMs }) });
        if (values.json) output.out(JSON.stringify(result, null, 2));
        else if (result.ok) output.out(format.formatValue(result.value));
        else output.err(format.formatFailure(result));
        if (interrupt.signal.aborted) return 130;
        return result.ok ? 0 : 1;
      } finally {
        process.removeListener("SIGINT", onSigint);
        await executor.close();
      }
    }
    if (positionals[0] === "servers") {
      if (positionals.length !== 1) throw new UsageError(`Unexpected arguments after "servers": ${positionals.slice(1).join(" ")}`);
      const executor = await library.createExecutor({ root, watch: false, logDir: false, logger: { debug() {}, info() {}, warn: (message) => output.err(`warning: ${message}`), error: (message) => output.err(`error: ${message}`) } });
      try {
        const servers = executor.servers();
        output.out(values.json ? JSON.stringify(servers, null, 2) : format.formatServerList(servers, Date.now()));
        // 1 when an enabled server is not connected, so scripts can check that every server is up.
        return servers.every((server) => server.state === "connected" || server.state === "disabled") ? 0 : 1;
      } finally {
        await executor.close();
      }
    }
    if (positionals[0] === "code") {
      const codeCommand = await import("./code-command.js");
      if (positionals[1] !== "exec" || positionals.length !== 2) throw new UsageError(`Usage: ${codeCommand.CODE_USAGE}`);
      const request = await codeCommand.readCodeRequest(values, readStdin).catch((error: unknown) => {
        throw error instanceof codeCommand.CodeUsageError ? new UsageError(error.message) : error;
      });
      // The person at the terminal asked to run code: enabled for this run, within tools.json's limits.
      const executor = await library.createExecutor({ root, watch: false, codeExecution: { enabled: true }, logger: { debug() {}, info() {}, warn: (message) => output.err(`warning: ${message}`), error: (message) => output.err(`error: ${message}`) } });
      const interrupt = new AbortController();
      const onSigint = () => interrupt.abort();
      process.once("SIGINT", onSigint);
      try {
        const result = await executor.executeCode(request, { signal: interrupt.signal });
        const exitCode = codeCommand.printCodeResult(result, values.json === true, output);
        return interrupt.signal.aborted ? 130 : exitCode;
      } finally {
        process.removeListener("SIGINT", onSigint);
        await executor.close();
      }
    }
    throw new UsageError(`Unknown command "${command}"`);
  } catch (error) {
    if (error instanceof UsageError) {
      output.err(`${error.message}\n\n${USAGE}`);
      return 2;
    }
    if (library.isConfigError(error)) {
      if (values.json) output.out(JSON.stringify({ ok: false, error: { code: error.code, message: error.message, issues: error.issues } }, null, 2));
      else output.err(`${error.code === "CONFIG_MISSING" ? "Config file missing" : "Invalid config"}:\n${format.formatIssues(error.issues)}`);
      return 1;
    }
    if (library.isToolexecError(error)) {
      output.err(`error ${error.code}: ${error.message}`);
      return 1;
    }
    throw error;
  }
}

const isMain = process.argv[1] !== undefined && import.meta.url === (await import("node:url")).pathToFileURL((await import("node:fs")).realpathSync(process.argv[1])).href;
if (isMain) {
  const code = await runCli(process.argv.slice(2), {
    out: (text) => process.stdout.write(`${text}\n`),
    err: (text) => process.stderr.write(`${text}\n`),
  });
  process.exitCode = code;
}
