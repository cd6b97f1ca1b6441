/**
 * Reads an execution log folder (the JSONL files the executor writes, rotated daily): records by
 * filter, the per-tool summary, one execution as a tree, the most recent executions, and a follow of
 * new lines. Files are streamed; a line that is not a JSON object is skipped and counted, never fatal.
 */
import { buildExecutionTree, indexChildren, type ExecutionNode } from "./execution-tree.js";
import { fileSize, listLogFiles } from "./log-files.js";
import { isCallRecord, matchesFilter, parseRecord, timeOf, type LogFilter, type LoggedRecord } from "./log-record.js";
import { createSummary, type LogSummary } from "./log-summary.js";
import { followLogLines } from "./follow-log.js";
import { forEachLine } from "./read-lines.js";
import { scanRecord } from "./scan-record.js";

/** How much of the newest files `recent()` reads: the last few thousand calls of a busy log. */
export const RECENT_TAIL_BYTES = 8 * 1024 * 1024;

export interface ExecutionLogReader {
  /** The folder read. */
  dir: string;
  /** Calls passing `filter` (all but `execution`), oldest first; resolves with the count of malformed lines. */
  records(filter: LogFilter, onRecord: (record: LoggedRecord) => void, signal?: AbortSignal): Promise<{ malformedLines: number }>;
  /** Per tool over the calls passing `filter`: calls, errors by code, duration and queue-wait percentiles. */
  summary(filter?: LogFilter): Promise<LogSummary>;
  /** The execution `id` with every call made under it, or undefined when the log has no line for it. */
  tree(id: string): Promise<ExecutionNode | undefined>;
  /** The `limit` most recent top-level executions (newest first), each with its sub-calls, from the end of the newest files. */
  recent(limit: number): Promise<ExecutionNode[]>;
  /** Calls passing `filter` as they are written, until `signal` aborts; malformed lines go to `onMalformed`. */
  follow(filter: LogFilter, options: { signal: AbortSignal; onRecord(record: LoggedRecord): void; onMalformed?(line: string): void; onReady?(): void }): Promise<void>;
}

/**
 * @example
 * const log = openExecutionLog("/project/.toolexec/logs");
 * const { tools } = await log.summary({ since: Date.now() - 3_600_000 });
 */
export function openExecutionLog(dir: string): ExecutionLogReader {
  /** Each line's scanned fields (see scan-record.ts) with the line itself; malformed lines counted. */
  const scan = async (since: number | undefined, onRecord: (scanned: LoggedRecord, line: string) => void, signal?: AbortSignal) => {
    let malformedLines = 0;
    const files = await listLogFiles(dir, since);
    for (const file of files) {
      signal?.throwIfAborted();
      await forEachLine(
        file.path,
        (line) => {
          const scanned = scanRecord(line);
          if (scanned) onRecord(scanned, line);
          else malformedLines++;
        },
        signal ? { signal } : {},
      );
    }
    return { malformedLines, files: files.map((file) => file.path) };
  };
  /** The whole record of a line the scan accepted (the scan checked its structure; this parse can still fail on a bad value inside). */
  const wholeRecord = (scanned: LoggedRecord, line: string) => parseRecord(line) ?? scanned;

  return {
    dir,
    async records(filter, onRecord, signal) {
      const { malformedLines } = await scan(filter.since, (scanned, line) => matchesFilter(scanned, filter) && onRecord(wholeRecord(scanned, line)), signal);
      return { malformedLines };
    },
    async summary(filter = {}) {
      const summary = createSummary();
      const { malformedLines, files } = await scan(filter.since, (record) => matchesFilter(record, filter) && summary.add(record));
      return summary.finish(malformedLines, files);
    },
    async tree(id) {
      let root: LoggedRecord | undefined;
      // Only sub-calls are kept: the tree's lines, and those of other trees, which are few next to the whole log.
      const subCalls: LoggedRecord[] = [];
      const lines = new Map<LoggedRecord, string>();
      await scan(undefined, (scanned, line) => {
        if (!isCallRecord(scanned)) return;
        if (scanned.executionId === id) root = scanned;
        else if (typeof scanned.parentExecutionId !== "string") return;
        else subCalls.push(scanned);
        lines.set(scanned, line);
      });
      if (root === undefined) return undefined;
      // Built from the scanned fields; only the tree's own lines are then parsed whole.
      const whole = (node: ExecutionNode): ExecutionNode => ({ record: wholeRecord(node.record, lines.get(node.record)!), children: node.children.map(whole) });
      return whole(buildExecutionTree(root, indexChildren(subCalls)));
    },
    async recent(limit) {
      const files = (await listLogFiles(dir)).reverse();
      const records: LoggedRecord[] = [];
      let budget = RECENT_TAIL_BYTES;
      for (const file of files) {
        if (budget <= 0) break;
        const size = await fileSize(file.path);
        const part: LoggedRecord[] = [];
        await forEachLine(file.path, (line) => {
          const record = parseRecord(line);
          if (record && isCallRecord(record)) part.push(record);
        }, { start: Math.max(0, size - budget) });
        records.unshift(...part);
        budget -= size;
        if (records.filter((record) => record.parentExecutionId === undefined).length >= limit) break;
      }
      const children = indexChildren(records);
      const roots = records.filter((record) => typeof record.parentExecutionId !== "string");
      roots.sort((a, b) => timeOf(b) - timeOf(a));
      return roots.slice(0, limit).map((record) => buildExecutionTree(record, children));
    },
    async follow(filter, options) {
      await followLogLines(dir, {
        signal: options.signal,
        ...(options.onReady ? { onReady: options.onReady } : {}),
        onLine(line) {
          const record = parseRecord(line);
          if (!record) return options.onMalformed?.(line);
          if (matchesFilter(record, filter)) options.onRecord(record);
        },
      });
    },
  };
}
