/**
 * What the CLI shows on its progress line while it waits: a package runner's first start (its
 * download), else the command's own work (a tool call's progress, a code run's time and tool calls).
 * Without a terminal (piped output, `--json`) every method does nothing.
 */
import type { Executor, ToolProgress } from "../index.js";
import { formatElapsed, type StatusLine } from "./status-line.js";

/** Work is shown only once it has lasted this long: a quick command prints nothing extra. */
export const PROGRESS_DELAY_MS = 500;

export interface CliProgress {
  /** A server's first start through a package runner began; shown until `settled(server)`. */
  installing(server: string, runner: string, budgetMs: number): void;
  /** That server is up, or gave up. */
  settled(server: string): void;
  /** The command's work, shown from `PROGRESS_DELAY_MS` on while nothing installs. */
  working(render: () => string): void;
  /** Follow the executor's install events (a lazy server's first start during a call). Returns the undo. */
  follow(executor: Executor): () => void;
  /** Erase the line for good. */
  stop(): void;
}

/**
 * @example
 * const progress = createCliProgress(context.status);
 * progress.working(() => `docs__search ${formatElapsed(Date.now() - started)}`);
 */
export function createCliProgress(status: StatusLine | undefined): CliProgress {
  const installs = new Map<string, { runner: string; budgetMs: number; since: number }>();
  let work: (() => string) | undefined;
  const render = () => {
    const last = [...installs].at(-1);
    if (last === undefined) return work?.() ?? "";
    const [server, { runner, budgetMs, since }] = last;
    const more = installs.size > 1 ? ` (+${installs.size - 1} more)` : "";
    return `installing MCP server "${server}" through ${runner}${more}: first start, may download it  ${formatElapsed(Date.now() - since)} of up to ${formatElapsed(budgetMs)}`;
  };
  const redraw = (delayMs: number) => {
    if (installs.size === 0 && work === undefined) status?.hide();
    else status?.show(render, { delayMs });
  };
  return {
    installing(server, runner, budgetMs) {
      installs.set(server, { runner, budgetMs, since: Date.now() });
      redraw(0);
    },
    settled(server) {
      if (installs.delete(server)) redraw(PROGRESS_DELAY_MS);
    },
    working(next) {
      work = next;
      redraw(PROGRESS_DELAY_MS);
    },
    follow(executor) {
      if (status === undefined) return () => undefined;
      const undo = [
        executor.on("server:installing", ({ server, command, budgetMs }) => this.installing(server, command, budgetMs)),
        executor.on("server:connected", ({ server }) => this.settled(server)),
        executor.on("server:disconnected", ({ server }) => this.settled(server)),
      ];
      return () => undo.forEach((unsubscribe) => unsubscribe());
    },
    stop() {
      installs.clear();
      work = undefined;
      status?.hide();
    },
  };
}

/**
 * A call's line: its name, the server's last progress report, the time so far.
 *
 * @example
 * describeCall("docs__index", { progress: 3, total: 10, message: "page 3" }, 4_200); // "docs__index  page 3  3/10 (30%)  4.2 s"
 */
export function describeCall(tool: string, progress: ToolProgress | undefined, elapsedMs: number): string {
  const parts = [tool];
  if (progress?.message) parts.push(progress.message);
  if (progress !== undefined) {
    const { total } = progress;
    parts.push(total !== undefined && total > 0 ? `${progress.progress}/${total} (${Math.round((progress.progress / total) * 100)}%)` : `${progress.progress}`);
  }
  parts.push(formatElapsed(elapsedMs));
  return parts.join("  ");
}

/**
 * A code run's line: the time so far and the tool calls it made.
 *
 * @example
 * describeCodeRun(2, "docs__search", 4_200); // "running code  4.2 s  2 tool calls, last docs__search"
 */
export function describeCodeRun(calls: number, lastTool: string | undefined, elapsedMs: number): string {
  const count = `${calls} tool call${calls === 1 ? "" : "s"}`;
  return `running code  ${formatElapsed(elapsedMs)}  ${lastTool === undefined ? count : `${count}, last ${lastTool}`}`;
}
