/**
 * `toolexec code exec`: run JavaScript in the sandbox with the project's tools, print the result
 * (pretty, or the exact `CodeResult` with `--json`) and the tool-call trace; exit 1 on failure.
 * The command enables code execution for its own run; tools.json's `codeExecution` limits apply.
 */
import { readFile } from "node:fs/promises";
import type { CodeRequest, CodeResult } from "../plugins/code/code-result.js";

/** A mistake in the command line; main.ts prints it with the usage text (exit 2). */
export class CodeUsageError extends Error {}

export const CODE_USAGE = "toolexec code exec (--code <js> | --file <file|->) [--input <json> | --input-file <file|->] [--timeout <ms>] [--max-tool-calls <n>] [--allowed-servers a,b] [--json]";

export interface CodeCommandValues {
  code?: string;
  file?: string;
  input?: string;
  "input-file"?: string;
  timeout?: string;
  "max-tool-calls"?: string;
  "allowed-servers"?: string;
}

async function readSource(path: string, flag: string, readStdin: () => Promise<string>): Promise<string> {
  try {
    return path === "-" ? await readStdin() : await readFile(path, "utf8");
  } catch (error) {
    throw new CodeUsageError(`Cannot read ${flag} ${path}: ${(error as Error).message}`);
  }
}

function wholeNumber(text: string | undefined, flag: string, minimum: number): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < minimum) throw new CodeUsageError(`${flag} expects a whole number from ${minimum}, got ${JSON.stringify(text)}`);
  return value;
}

/**
 * The request the flags describe.
 *
 * @example
 * await readCodeRequest({ code: "1 + 1", timeout: "5000" }, readStdin); // { code: "1 + 1", options: { timeout_ms: 5000 } }
 */
export async function readCodeRequest(values: CodeCommandValues, readStdin: () => Promise<string>): Promise<CodeRequest> {
  if ((values.code === undefined) === (values.file === undefined)) throw new CodeUsageError("Give the code with either --code or --file");
  if (values.input !== undefined && values["input-file"] !== undefined) throw new CodeUsageError("Give either --input or --input-file, not both");
  if (values.file === "-" && values["input-file"] === "-") throw new CodeUsageError("Only one of --file and --input-file can read stdin");
  const code = values.code ?? (await readSource(values.file!, "--file", readStdin));
  const inputText = values["input-file"] === undefined ? values.input : await readSource(values["input-file"], "--input-file", readStdin);
  let input: unknown;
  if (inputText !== undefined) {
    try {
      input = JSON.parse(inputText);
    } catch (error) {
      throw new CodeUsageError(`${values.input !== undefined ? "--input" : values["input-file"]} is not valid JSON: ${(error as Error).message}`);
    }
  }
  const timeout = wholeNumber(values.timeout, "--timeout", 1);
  const maxToolCalls = wholeNumber(values["max-tool-calls"], "--max-tool-calls", 0);
  const servers = values["allowed-servers"];
  const options: NonNullable<CodeRequest["options"]> = {
    ...(timeout === undefined ? {} : { timeout_ms: timeout }),
    ...(maxToolCalls === undefined ? {} : { max_tool_calls: maxToolCalls }),
    ...(servers === undefined ? {} : { allowed_servers: servers.split(",").map((server) => server.trim()).filter((server) => server !== "") }),
  };
  return { code, ...(input === undefined ? {} : { input }), ...(Object.keys(options).length === 0 ? {} : { options }) };
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
export function printCodeResult(result: CodeResult, json: boolean, output: { out(text: string): void; err(text: string): void }): number {
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
