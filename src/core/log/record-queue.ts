/**
 * The records waiting for the disk, held as snapshots and bounded by the memory they hold. When the
 * disk falls behind, the queue drops new records and counts them (a `log:dropped` line says how many)
 * rather than grow without bound or make calls wait.
 */
import { createRecordSerializer, type HeldRecord } from "./record-serializer.js";

/** Characters of held records that may wait for the disk (16 MiB of text); past it, records are dropped. */
export const MAX_QUEUED_CHARS = 16 * 1024 * 1024;

export interface RecordQueueOptions {
  redactKeys: readonly RegExp[];
  maxValueBytes: number;
  /** Defaults to `MAX_QUEUED_CHARS`. */
  maxQueuedChars?: number;
  /** Called when the queue starts dropping records; again only after it has been emptied since. */
  onDropping(): void;
}

export interface RecordQueue {
  readonly length: number;
  /** Characters the queued records hold. */
  readonly chars: number;
  /** Snapshot `record` (see `RecordSerializer.hold`) and queue it, or drop it when the queue is full. Never throws. */
  add(record: Record<string, unknown>, secrets: readonly string[]): void;
  /**
   * The oldest records as log lines, removed from the queue: at most `count`, and no more once they
   * hold `maxChars` (at least one); then a line counting the records dropped since the last take.
   */
  takeLines(count: number, maxChars?: number): string;
  clear(): void;
}

export function createRecordQueue(options: RecordQueueOptions): RecordQueue {
  const serializer = createRecordSerializer(options);
  const maxChars = options.maxQueuedChars ?? MAX_QUEUED_CHARS;
  let records: Array<{ held: HeldRecord; size: number }> = [];
  let chars = 0;
  let dropped = 0;
  let droppedSince = 0;
  let dropping = false;

  const droppedLine = () => {
    const line = `${JSON.stringify({ time: new Date(droppedSince).toISOString(), event: "log:dropped", dropped })}\n`;
    dropped = 0;
    return line;
  };

  return {
    get length() {
      return records.length;
    },
    get chars() {
      return chars;
    },
    add(record, secrets) {
      const held = serializer.hold(record, secrets);
      const size = serializer.size(held);
      // One record larger than the whole bound still goes in alone: it was bounded already.
      if (records.length === 0 || chars + size <= maxChars) {
        records.push({ held, size });
        chars += size;
        return;
      }
      if (dropped++ === 0) droppedSince = Date.now();
      if (dropping) return;
      dropping = true;
      options.onDropping();
    },
    takeLines(count, maxLineChars = Infinity) {
      let end = 0;
      let text = "";
      while (end < records.length && end < count && (end === 0 || text.length < maxLineChars)) {
        const { held, size } = records[end++]!;
        chars -= size;
        text += `${serializer.line(held)}\n`;
      }
      records = end === records.length ? [] : records.slice(end);
      if (dropped > 0) text += droppedLine();
      // One warning each time the disk falls behind: that time ends when the queue is empty again.
      if (records.length === 0) dropping = false;
      return text;
    },
    clear() {
      records = [];
      chars = 0;
    },
  };
}
