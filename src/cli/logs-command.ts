/**
 * `toolexec logs`: reads the execution log (see log-location.ts for where it is). No filter: a
 * summary per tool over the window; a filter: the matching calls, one line each; `--execution`: that
 * execution with its sub-calls as a tree; `--follow`: new calls as they are written, until Ctrl-C.
 */
import type { LogFilter, LoggedRecord } from "../logs.js";
import type { CommandContext } from "./command-context.js";
import { resolveLogDir } from "./log-location.js";
import { CliError, UsageError } from "./usage-error.js";

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/**
 * `30m`, `1h`, `2d` back from `now`, or an ISO 8601 time; epoch ms.
 *
 * @example
 * parseLogTime("1h", "--since", Date.now(), "logs"); // an hour ago
 */
export function parseLogTime(text: string, flag: string, now: number, command: string): number {
  const duration = /^(\d+(?:\.\d+)?)(ms|s|m|h|d|w)$/.exec(text.trim());
  if (duration) return now - Number(duration[1]) * UNITS[duration[2]!]!;
  const time = /^\d{4}-\d\d-\d\d/.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(time)) throw new UsageError(`${flag} expects a duration back from now (30s, 15m, 1h, 2d) or an ISO 8601 time (2026-11-28T09:00:00Z), got ${JSON.stringify(text)}`, command);
  return time;
}

/** The filter the flags ask for. */
function readFilter(context: CommandContext): LogFilter {
  const { values, command } = context;
  const now = Date.now();
  if (values.outcome !== undefined && values.outcome !== "ok" && values.outcome !== "error") throw new UsageError(`--outcome expects ok or error, got ${JSON.stringify(values.outcome)}`, command);
  const filter: LogFilter = {
    ...(values.since === undefined ? {} : { since: parseLogTime(values.since, "--since", now, command) }),
    ...(values.until === undefined ? {} : { until: parseLogTime(values.until, "--until", now, command) }),
    ...(values.tool === undefined ? {} : { tool: values.tool }),
    ...(values.server === undefined ? {} : { server: values.server }),
    ...(values.code === undefined ? {} : { code: values.code }),
    ...(values.outcome === undefined ? {} : { outcome: values.outcome }),
    ...(values.principal === undefined ? {} : { principal: values.principal }),
  };
  if (filter.since !== undefined && filter.until !== undefined && filter.since > filter.until) throw new UsageError("--since is after --until: the window is empty", command);
  return filter;
}

/** Prints calls as `--follow` and the filtered listing do: one line each, or one JSON line each. */
async function recordPrinter(context: CommandContext): Promise<(record: LoggedRecord) => void> {
  const { formatRecordLine } = await import("./format-logs.js");
  return (record) => context.output.out(context.values.json ? JSON.stringify(record) : formatRecordLine(record));
}

async function follow(context: CommandContext, log: import("../logs.js").ExecutionLogReader, filter: LogFilter): Promise<number> {
  const print = await recordPrinter(context);
  if (filter.since !== undefined) await log.records(filter, print);
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  try {
    let malformed = 0;
    // Said once the follow holds its place in the file: every call logged after this line is printed.
    const onReady = () => context.output.err(`toolexec logs: following ${log.dir} (Ctrl-C to stop)`);
    await log.follow(filter, { signal: stop.signal, onRecord: print, onMalformed: () => malformed++, onReady });
    if (malformed > 0) context.output.err(`toolexec logs: skipped ${malformed} malformed line${malformed === 1 ? "" : "s"}`);
  } finally {
    process.removeListener("SIGINT", onSignal);
    process.removeListener("SIGTERM", onSignal);
  }
  return 0;
}

export async function runLogs(context: CommandContext): Promise<number> {
  const { values, command, output } = context;
  if (values.follow && values.execution !== undefined) throw new UsageError("Give either --follow or --execution, not both", command);
  const filter = readFilter(context);
  const dir = resolveLogDir(values, context.cwd);
  const { openExecutionLog } = await import("../logs.js");
  const format = await import("./format-logs.js");
  const log = openExecutionLog(dir);
  if (values.follow) return follow(context, log, filter);
  const skipped = (count: number) => count > 0 && output.err(`toolexec logs: skipped ${count} malformed line${count === 1 ? "" : "s"} (not JSON objects)`);

  if (values.execution !== undefined) {
    const tree = await log.tree(values.execution);
    if (!tree) throw new CliError(`No execution ${JSON.stringify(values.execution)} in the log at ${dir}`);
    output.out(values.json ? JSON.stringify(tree, null, 2) : format.formatExecutionTree(tree));
    return 0;
  }
  const filtering = ["tool", "server", "code", "outcome", "principal"].some((flag) => values[flag as keyof typeof values] !== undefined);
  if (filtering) {
    const print = await recordPrinter(context);
    let count = 0;
    const { malformedLines } = await log.records(filter, (record) => {
      count++;
      print(record);
    });
    skipped(malformedLines);
    if (count === 0 && !values.json) output.err(`toolexec logs: no call matches in ${dir}`);
    return 0;
  }
  const summary = await log.summary(filter);
  skipped(summary.malformedLines);
  if (summary.files.length === 0) output.err(`toolexec logs: no execution log in ${dir} yet (it is created by the first call; see --log-dir)`);
  output.out(values.json ? JSON.stringify(summary, null, 2) : format.formatSummary(summary, dir));
  return 0;
}
