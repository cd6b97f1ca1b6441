/**
 * The per-tool summary of `toolexec logs`: calls, errors by code, and duration and queue-wait
 * percentiles. Percentiles are exact: every value is kept in a growing Float64Array (8 bytes a call,
 * 8 MB for a million calls) and sorted once at the end; p is the nearest-rank value, the smallest
 * value with at least p % of the calls at or below it.
 */
import type { LoggedRecord } from "./log-record.js";

/** One tool's line of the summary. */
export interface ToolSummary {
  tool: string;
  calls: number;
  /** Failed calls by error code. */
  errors: Record<string, number>;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  /** Waiting for a turn (a call logged without `queueMs` did not wait: 0). */
  queueP50Ms: number;
  queueP95Ms: number;
}

export interface LogSummary {
  /** Tools by calls, most first (then by name). */
  tools: ToolSummary[];
  /** Lines that were not JSON objects: skipped. */
  malformedLines: number;
  /** The files read, oldest first. */
  files: string[];
}

/** A growing array of numbers. */
class Values {
  private array = new Float64Array(64);
  length = 0;
  push(value: number): void {
    if (this.length === this.array.length) {
      const grown = new Float64Array(this.array.length * 2);
      grown.set(this.array);
      this.array = grown;
    }
    this.array[this.length++] = value;
  }
  sorted(): Float64Array {
    return this.array.subarray(0, this.length).sort();
  }
}

/**
 * The nearest-rank percentile of ascending `values`; 0 for none.
 *
 * @example
 * percentile(Float64Array.of(1, 2, 3, 4), 50); // 2
 */
export function percentile(values: Float64Array, p: number): number {
  if (values.length === 0) return 0;
  return values[Math.min(values.length, Math.max(1, Math.ceil((p / 100) * values.length))) - 1]!;
}

interface ToolTotals {
  calls: number;
  errors: Record<string, number>;
  durations: Values;
  queues: Values;
}

const finite = (value: unknown): number => (typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : 0);

/** Gathers records, then summarizes them. */
export function createSummary(): { add(record: LoggedRecord): void; finish(malformedLines: number, files: string[]): LogSummary } {
  const byTool = new Map<string, ToolTotals>();
  return {
    add(record) {
      const tool = record.tool!;
      let totals = byTool.get(tool);
      if (!totals) byTool.set(tool, (totals = { calls: 0, errors: {}, durations: new Values(), queues: new Values() }));
      totals.calls++;
      if (record.ok === false) {
        const code = typeof record.error?.code === "string" ? record.error.code : "UNKNOWN";
        totals.errors[code] = (totals.errors[code] ?? 0) + 1;
      }
      totals.durations.push(finite(record.durationMs));
      totals.queues.push(finite(record.queueMs));
    },
    finish(malformedLines, files) {
      const tools = [...byTool].map(([tool, totals]): ToolSummary => {
        const durations = totals.durations.sorted();
        const queues = totals.queues.sorted();
        return {
          tool,
          calls: totals.calls,
          errors: totals.errors,
          p50Ms: percentile(durations, 50),
          p95Ms: percentile(durations, 95),
          maxMs: durations.length === 0 ? 0 : durations[durations.length - 1]!,
          queueP50Ms: percentile(queues, 50),
          queueP95Ms: percentile(queues, 95),
        };
      });
      tools.sort((a, b) => b.calls - a.calls || (a.tool < b.tool ? -1 : a.tool > b.tool ? 1 : 0));
      return { tools, malformedLines, files };
    },
  };
}
