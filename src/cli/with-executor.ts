/**
 * Runs one command's work on an executor and always closes it. Ctrl-C aborts the work's signal
 * (exit 130); the executor's warnings go to stderr while the work runs.
 */
import type { Executor, ExecutorOptions, Logger } from "../index.js";
import { createCliProgress, type CliProgress } from "./cli-progress.js";
import type { CommandContext } from "./command-context.js";
import type { ProjectSelection } from "./project-options.js";

/**
 * Create an executor for `project` with `options` (hot reload off), run `work`, close it.
 *
 * @example
 * await withExecutor(context, project, { logDir: false }, (executor) => executor.listTools());
 */
export async function withExecutor<T>(
  context: CommandContext,
  project: ProjectSelection,
  options: Omit<ExecutorOptions, "root" | "toolsConfig" | "mcpConfig" | "watch" | "logger">,
  work: (executor: Executor, signal: AbortSignal, progress: CliProgress) => Promise<T>,
  /** Of the warnings logged while starting, those to print (`validate` names broken pieces itself, once). */
  startWarnings: (messages: string[], executor: Executor) => string[] = (messages) => messages,
): Promise<T> {
  const progress = createCliProgress(context.status);
  let closing = false;
  // Warnings of start-up wait here: config warnings are shown once per file content (shown-config-warnings.ts).
  let starting: string[] | undefined = [];
  // Once the command has its answer, what `close()` interrupts is not the user's concern: a tool
  // list refresh that a server's list_changed started just before is cut off by the close and
  // would otherwise print "refreshing its tool list failed: … was closed while the call was under way".
  const logger: Logger = {
    debug() {},
    // Notes worth a person's wait ("first start through npx, which may download it"), and on a terminal a line that shows the wait.
    info(message, fields) {
      if (closing) return;
      context.output.err(`note: ${message}`);
      if (fields?.event === "server:installing") progress.installing(String(fields.server), String(fields.runner), Number(fields.budgetMs));
    },
    warn(message) {
      if (starting) starting.push(message);
      else if (!closing) context.output.err(`warning: ${message}`);
    },
    error(message) {
      if (!closing) context.output.err(`error: ${message}`);
    },
  };
  // A package runner's first start (npx -y …) is waited out: exiting after the usual wait would kill its download.
  const mcp = { ...options.mcp, waitForInstalls: true };
  let executor: Executor;
  try {
    executor = await context.library.createExecutor({ ...options, mcp, root: project.root, toolsConfig: project.toolsConfig, mcpConfig: project.mcpConfig, watch: false, logger });
  } catch (error) {
    progress.stop();
    for (const message of starting) context.output.err(`warning: ${message}`);
    throw error;
  }
  // Start-up waited out the first starts; a lazy server's comes later, during the work.
  progress.stop();
  const unfollow = progress.follow(executor);
  const { messagesToShow } = await import("./shown-config-warnings.js");
  for (const message of startWarnings(messagesToShow(project.root, starting, executor.configStatus().warnings), executor)) context.output.err(`warning: ${message}`);
  starting = undefined;
  const interrupt = new AbortController();
  const onSigint = () => interrupt.abort();
  process.once("SIGINT", onSigint);
  try {
    return await work(executor, interrupt.signal, progress);
  } finally {
    unfollow();
    progress.stop();
    process.removeListener("SIGINT", onSigint);
    closing = true;
    await executor.close();
  }
}
