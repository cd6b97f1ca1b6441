/**
 * `toolexec tools list` and `toolexec tools call`. A call starts only the MCP server its tool
 * belongs to (none for a local tool), so a project with slow servers still calls its scripts at
 * once; the list needs every server.
 */
import type { ToolProgress, ToolResult } from "../index.js";
import { describeCall } from "./cli-progress.js";
import type { McpServerInfo } from "../mcp.js";
import type { CommandContext } from "./command-context.js";
import { selectProjectFiles } from "./project-options.js";
import { parseJson, parseWholeNumber, readSource } from "./read-input.js";
import { UsageError } from "./usage-error.js";
import { resolveLogDir } from "./log-location.js";
import { withExecutor } from "./with-executor.js";
import { cliInvocation } from "../core/cli-invocation.js";

/** How long a call waits for its server's first connection: a server started through `npx` may take long. */
const SERVER_START_WAIT_MS = 30_000;

/**
 * The servers a tool name can belong to: every prefix before a `__` (a server's own name may hold
 * `__`, so `a__b__c` is `a`'s tool `b__c` or `a__b`'s tool `c`). None for a local tool's name.
 *
 * @example
 * serversForTool("github__create_issue"); // ["github"]
 */
export function serversForTool(name: string): string[] {
  const servers: string[] = [];
  for (let index = name.indexOf("__"); index > 0; index = name.indexOf("__", index + 1)) servers.push(name.slice(0, index));
  return servers;
}

export async function runToolsList(context: CommandContext): Promise<number> {
  const project = selectProjectFiles(context.values, context.cwd, context.command);
  const format = await import("./format.js");
  const { tools, servers } = await withExecutor(context, project, { logDir: false }, async (executor) => ({ tools: await executor.listTools(), servers: executor.servers() }));
  context.output.out(context.values.json ? JSON.stringify(tools, null, 2) : format.formatToolList(tools));
  const warning = format.formatServerWarning(servers);
  if (warning !== undefined) context.output.err(warning);
  return 0;
}

async function readArguments(context: CommandContext): Promise<unknown> {
  const { args, "args-file": argsFile } = context.values;
  if (args !== undefined && argsFile !== undefined) throw new UsageError("Give either --args or --args-file, not both", context.command);
  if (argsFile !== undefined) return parseJson(await readSource(argsFile, "--args-file", context), argsFile, context.command);
  return args === undefined ? {} : parseJson(args, "--args", context.command);
}

/** The state of the server a failed call was meant for, when it is not connected and the message does not say so already. */
function serverNote(name: string, result: Extract<ToolResult, { ok: false }>, servers: McpServerInfo[]): string | undefined {
  const candidates = new Set(serversForTool(name));
  const server = servers.find((candidate) => candidates.has(candidate.name) && candidate.state !== "connected");
  if (server === undefined) return undefined;
  const reason = server.lastError?.message;
  if (reason !== undefined && result.error.message.includes(reason)) return undefined;
  return `MCP server "${server.name}" is ${server.state}${reason === undefined ? "" : `: ${reason}`}\nRun \`${cliInvocation()} servers\` for details.`;
}

export async function runToolsCall(context: CommandContext): Promise<number> {
  const name = context.positionals[0]!;
  const timeoutMs = parseWholeNumber(context.values.timeout, "--timeout", 1, context.command);
  const args = await readArguments(context);
  const project = selectProjectFiles(context.values, context.cwd, context.command);
  const format = await import("./format.js");
  const servers = serversForTool(name);
  const mcp = { servers, ...(servers.length > 0 ? { startupTimeoutMs: Math.min(timeoutMs ?? SERVER_START_WAIT_MS, SERVER_START_WAIT_MS) } : {}) };
  return withExecutor(context, project, { mcp, logDir: resolveLogDir(context.values, context.cwd) }, async (executor, signal, progress) => {
    const started = Date.now();
    let reported: ToolProgress | undefined;
    progress.working(() => describeCall(name, reported, Date.now() - started));
    // Progress is asked of the tool only when a terminal shows it.
    const onProgress = context.status ? { onProgress: (report: ToolProgress) => (reported = report) } : {};
    const result = await executor.callTool(name, args, { signal, ...(timeoutMs === undefined ? {} : { timeoutMs }), ...onProgress });
    progress.stop();
    if (context.values.json) context.output.out(JSON.stringify(result, null, 2));
    else if (result.ok) context.output.out(format.formatValue(result.value));
    else context.output.err(format.formatFailure(result));
    if (!result.ok) {
      const note = serverNote(name, result, executor.servers());
      if (note !== undefined) context.output.err(note);
    }
    if (signal.aborted) return 130;
    return result.ok ? 0 : 1;
  });
}
