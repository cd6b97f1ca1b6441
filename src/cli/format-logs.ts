/** How `toolexec logs` prints: the summary table, one line per call, and an execution as a tree. */
import type { ExecutionNode, LoggedRecord, LogSummary } from "../logs.js";

const milliseconds = (value: number) => (value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${Number(value.toFixed(value < 10 ? 2 : 1))} ms`);

/** The first line of an error message, cut to a width that keeps one call on one line. */
function shortMessage(message: unknown): string {
  const text = typeof message === "string" ? message.split("\n")[0]! : "";
  return text.length > 160 ? `${text.slice(0, 159)}…` : text;
}

/** One call on one line: time, outcome, tool, duration, queue wait, error, ids. */
export function formatRecordLine(record: LoggedRecord): string {
  const parts = [record.time ?? "(no time)", record.ok === false ? "error" : "ok   ", record.tool ?? "?", milliseconds(Number(record.durationMs) || 0)];
  if (typeof record.queueMs === "number" && record.queueMs > 0) parts.push(`queued ${milliseconds(record.queueMs)}`);
  if (record.ok === false) parts.push(`${record.error?.code ?? "UNKNOWN"}: ${shortMessage(record.error?.message)}`);
  let ids = `id=${record.executionId ?? "?"}`;
  if (record.parentExecutionId !== undefined) ids += ` parent=${record.parentExecutionId}`;
  parts.push(ids);
  return parts.join("  ");
}

/** An execution and its sub-calls, drawn as a tree. */
export function formatExecutionTree(node: ExecutionNode): string {
  const lines: string[] = [];
  const visit = (current: ExecutionNode, prefix: string, branch: string) => {
    lines.push(`${prefix}${branch}${formatRecordLine(current.record)}`);
    const childPrefix = prefix + (branch === "" ? "" : branch === "└─ " ? "   " : "│  ");
    current.children.forEach((child, index) => visit(child, childPrefix, index === current.children.length - 1 ? "└─ " : "├─ "));
  };
  visit(node, "", "");
  return lines.join("\n");
}

/** Rows padded to columns; numbers right-aligned. */
function columns(rows: string[][], rightAligned: ReadonlySet<number>): string[] {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows.map((row) => row.map((cell, column) => (rightAligned.has(column) ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!))).join("  ").trimEnd());
}

/** The summary as a table, one tool a row, then where it came from. */
export function formatSummary(summary: LogSummary, dir: string): string {
  const calls = summary.tools.reduce((sum, tool) => sum + tool.calls, 0);
  const source = `${calls} call${calls === 1 ? "" : "s"} in ${summary.files.length} file${summary.files.length === 1 ? "" : "s"} of ${dir}`;
  if (summary.tools.length === 0) return `No calls logged in this window (${source}).`;
  const rows = [
    ["TOOL", "CALLS", "ERRORS", "P50", "P95", "MAX", "QUEUE P50", "QUEUE P95"],
    ...summary.tools.map((tool) => [
      tool.tool,
      String(tool.calls),
      Object.entries(tool.errors)
        .sort((a, b) => b[1] - a[1])
        .map(([code, count]) => `${code}×${count}`)
        .join(", ") || "-",
      milliseconds(tool.p50Ms),
      milliseconds(tool.p95Ms),
      milliseconds(tool.maxMs),
      milliseconds(tool.queueP50Ms),
      milliseconds(tool.queueP95Ms),
    ]),
  ];
  return [...columns(rows, new Set([1, 3, 4, 5, 6, 7])), "", source].join("\n");
}
