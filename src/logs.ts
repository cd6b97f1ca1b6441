/**
 * `toolexec/logs`: read an execution log folder (the JSONL files the executor writes): calls by
 * filter, a per-tool summary with percentiles, one execution with its sub-calls as a tree, the most
 * recent executions, and a follow of new lines across rotations. It loads nothing else of the
 * library. See docs/cli.md#toolexec-logs and docs/console.md.
 *
 * @example
 * import { openExecutionLog } from "toolexec/logs";
 * const log = openExecutionLog(executor.logDir || ".toolexec/logs");
 * const { tools } = await log.summary({ since: Date.now() - 3_600_000 });
 */
export { openExecutionLog } from "./logs/execution-log-reader.js";
export type { ExecutionLogReader } from "./logs/execution-log-reader.js";
export type { LogFilter, LoggedRecord } from "./logs/log-record.js";
export type { LogSummary, ToolSummary } from "./logs/log-summary.js";
export type { ExecutionNode } from "./logs/execution-tree.js";
