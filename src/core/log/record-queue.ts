/**
 * The records waiting for the disk, held as snapshots and bounded by the memory they hold. When the
 * disk falls behind, the queue drops new records and counts them (a `log:dropped` line says how many)
 * rather than grow without bound or make calls wait. Large records are turned into their lines by
 * `ready()`, a slice at a time, before they are taken.
 */
import { runSliced } from "./redact-json-text.js";
import { createRecordSerializer, type HeldRecord, type RecordSerializer } from "./record-serializer.js";

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
   * Turn the large records waiting into their lines, in slices that let the event loop turn between
   * them (`SLICE_MS`); resolves when none is left.
   */
  ready(): Promise<void>;
  /**
   * The oldest records as log lines, removed from the queue: at most `count`, and no more once they
   * hold `maxChars` (at least one); then a line counting the records dropped since the last take.
   * Stops before a large record `ready()` has not finished, unless `now` (a process's last moment:
   * its line is then made at once).
   */
  takeLines(count: number, maxChars?: number, now?: boolean): string;
  clear(): void;
}

type Entry = { held: HeldRecord; size: number };

const isLarge = (entry: Entry) => "large" in entry.held;

/**
 * Turn each large record of `entries()` into its line, a slice at a time; `entries()` is read
 * again after each, since the queue changes meanwhile. `resized` hears how its size changed.
 */
async function finishLarge(entries: () => Entry[], serializer: RecordSerializer, resized: (change: number) => void): Promise<void> {
  for (let entry = entries().find(isLarge); entry !== undefined; entry = entries().find(isLarge)) {
    const line = await runSliced(serializer.lineSteps(entry.held));
    // Taken at exit, or cleared, meanwhile: its line is no longer wanted here.
    if (!entries().includes(entry)) continue;
    resized(line.length - entry.size);
    entry.held = { line };
    entry.size = line.length;
  }
}

export function createRecordQueue(options: RecordQueueOptions): RecordQueue {
  const serializer = createRecordSerializer(options);
  const maxChars = options.maxQueuedChars ?? MAX_QUEUED_CHARS;
  let records: Entry[] = [];
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
    ready: () => finishLarge(() => records, serializer, (change) => (chars += change)),
    takeLines(count, maxLineChars = Infinity, now = false) {
      let end = 0;
      let text = "";
      while (end < records.length && end < count && (end === 0 || text.length < maxLineChars) && (now || !isLarge(records[end]!))) {
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
