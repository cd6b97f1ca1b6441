/**
 * `toolexec code exec`: run JavaScript in the sandbox with the project's tools, print the result
 * (pretty, or the exact `CodeResult` with `--json`) and the tool-call trace; exit 1 on failure.
 * The command enables code execution for its own run; tools.json's `codeExecution` limits apply.
 */
import type { CodeRequest, CodeResult } from "../code.js";
import { describeCodeRun } from "./cli-progress.js";
import type { CommandContext, Output } from "./command-context.js";
import { selectProjectFiles } from "./project-options.js";
import { parseJson, parseWholeNumber, readSource } from "./read-input.js";
import { UsageError } from "./usage-error.js";
import { resolveLogDir } from "./log-location.js";
import { withExecutor } from "./with-executor.js";

/**
 * The request the flags describe.
 *
 * @example
 * await readCodeRequest(context); // with --code "1 + 1" --timeout 5000: { code: "1 + 1", options: { timeout_ms: 5000 } }
 */
export async function readCodeRequest(context: CommandContext): Promise<CodeRequest> {
  const { values, command } = context;
  if ((values.code === undefined) === (values.file === undefined)) throw new UsageError("Give the code with either --code or --file", command);
  if (values.input !== undefined && values["input-file"] !== undefined) throw new UsageError("Give either --input or --input-file, not both", command);
  if (values.file === "-" && values["input-file"] === "-") throw new UsageError("Only one of --file and --input-file can read stdin", command);
  const code = values.code ?? (await readSource(values.file!, "--file", context));
  const inputText = values["input-file"] === undefined ? values.input : await readSource(values["input-file"], "--input-file", context);
  const input = inputText === undefined ? undefined : parseJson(inputText, values.input !== undefined ? "--input" : values["input-file"]!, command);
  const timeout = parseWholeNumber(values.timeout, "--timeout", 1, command);
  const maxToolCalls = parseWholeNumber(values["max-tool-calls"], "--max-tool-calls", 0, command);
  const servers = allowedServers(values["allowed-servers"]);
  const options: NonNullable<CodeRequest["options"]> = {
    ...(timeout === undefined ? {} : { timeout_ms: timeout }),
    ...(maxToolCalls === undefined ? {} : { max_tool_calls: maxToolCalls }),
    ...(servers === undefined ? {} : { allowed_servers: servers }),
  };
  return { code, ...(input === undefined ? {} : { input }), ...(Object.keys(options).length === 0 ? {} : { options }) };
}

function allowedServers(text: string | undefined): string[] | undefined {
  return text?.split(",").map((server) => server.trim()).filter((server) => server !== "");
}

export async function runCodeExec(context: CommandContext): Promise<number> {
  const request = await readCodeRequest(context);
  const project = selectProjectFiles(context.values, context.cwd, context.command);
  const servers = allowedServers(context.values["allowed-servers"]);
  // The person at the terminal asked to run code: enabled for this run, within tools.json's limits.
  // With --allowed-servers the program can reach no other server, so no other one is started.
  const options = { codeExecution: { enabled: true }, logDir: resolveLogDir(context.values, context.cwd), ...(servers === undefined ? {} : { mcp: { servers } }) };
  return withExecutor(context, project, options, async (executor, signal, progress) => {
    const started = Date.now();
    let calls = 0;
    let lastTool: string | undefined;
    // The run's own tool calls carry its execution id as their parent: this command runs nothing else.
    const unsubscribe = executor.on("tool:start", ({ tool, parentExecutionId }) => {
      if (parentExecutionId === undefined) return;
      calls++;
      lastTool = tool;
    });
    progress.working(() => describeCodeRun(calls, lastTool, Date.now() - started));
    const result = await executor.executeCode(request, { signal }).finally(unsubscribe);
    progress.stop();
    const exitCode = printCodeResult(result, context.values.json === true, context.output);
    return signal.aborted ? 130 : exitCode;
  });
}

/** The trace and the id, for stderr: what ran, how long, how it ended. */
function formatTrace(result: CodeResult): string[] {
  const lines: string[] = [];
  if (result.logs.length > 0) lines.push("logs:", ...result.logs.map((line) => `  ${line.replace(/\n/g, "\n  ")}`));
  if (result.toolCalls.length > 0) {
    lines.push(`tool calls (${result.toolCalls.length}):`);
    for (const call of result.toolCalls) lines.push(`  ${call.server}.${call.tool}  ${call.durationMs} ms  ${call.ok ? "ok" : (call.errorCode ?? "failed")}`);
  }
  lines.push(`execution id: ${result.executionId} (${result.durationMs} ms)`);
  return lines;
}

/**
 * Print a result: the value on stdout and the rest on stderr, or the exact JSON on stdout.
 * Returns the exit code: 0 for success, 1 for failure.
 */
export function printCodeResult(result: CodeResult, json: boolean, output: Output): number {
  if (json) {
    output.out(JSON.stringify(result, null, 2));
    return result.ok ? 0 : 1;
  }
  if (result.ok) {
    output.out(typeof result.value === "string" ? result.value : JSON.stringify(result.value, null, 2));
    output.err(formatTrace(result).join("\n"));
    return 0;
  }
  const lines = [`error ${result.error.code}: ${result.error.message}`];
  const frames = result.error.stack?.split("\n").filter((line) => line.startsWith("    at ")) ?? [];
  if (frames.length > 0) lines.push(...frames);
  output.err([...lines, ...formatTrace(result)].join("\n"));
  return 1;
}
