/**
 * When the log's batches are written: a batch waits up to a delay for more items, a full one goes at
 * the next turn of the event loop, and one batch is written at a time, so a slow disk slows the
 * writing, never the calls that queue items.
 */

export interface WriteBehindOptions {
  /** How many items wait to be written. */
  waiting(): number;
  /** Whether the waiting items make a full batch, written without waiting out the delay. */
  isFull(): boolean;
  /** Write the next batch; resolves with how many items it took, once they are written. */
  writeBatch(): Promise<number>;
  /** True once writing must stop for good (the file failed). */
  stopped(): boolean;
  delayMs: number;
}

export interface WriteBehind {
  /** Call after queuing an item: its batch is written within `delayMs`. */
  schedule(): void;
  /** Write everything waiting, now and until none is left; `schedule` does nothing afterwards. */
  drain(): Promise<void>;
}

export function createWriteBehind(options: WriteBehindOptions): WriteBehind {
  let timer: NodeJS.Timeout | undefined;
  let soon: NodeJS.Immediate | undefined;
  let pumping: Promise<void> | undefined;
  let draining = false;
  const cancel = () => {
    clearTimeout(timer);
    clearImmediate(soon);
    timer = soon = undefined;
  };
  // Writes the items that waited when it began, a batch at a time; later ones wait their own delay,
  // so that under a steady stream of calls each write still carries a batch, not one item.
  const pump = () =>
    (pumping ??= (async () => {
      try {
        for (let owed = options.waiting(); owed > 0 && options.waiting() > 0 && !options.stopped(); ) owed -= await options.writeBatch();
      } finally {
        pumping = undefined;
        if (options.waiting() > 0) schedule();
      }
    })());
  const flush = () => {
    cancel();
    void pump();
  };
  const schedule = () => {
    if (draining || options.stopped()) return;
    if (options.isFull()) soon ??= setImmediate(flush);
    // Unreferenced: a pending batch never keeps a finished process alive (its exit writes it instead).
    else timer ??= setTimeout(flush, options.delayMs).unref();
  };
  return {
    schedule,
    async drain() {
      draining = true;
      cancel();
      while ((pumping || options.waiting() > 0) && !options.stopped()) await pump();
    },
  };
}
