/**
 * Last-moment writes for logs a host never closed: one process `exit` listener, shared by every open
 * log, runs each log's synchronous flush. `exit` comes when the event loop empties and on
 * `process.exit()` or an uncaught exception, but not on a signal that kills the process (SIGTERM,
 * SIGKILL): a host that handles signals closes its executor there.
 */

const flushes = new Set<() => void>();

function flushAll() {
  for (const flush of flushes) {
    try {
      flush();
    } catch {
      // The process is exiting: one log's failure must not keep the others from writing.
    }
  }
}

/**
 * Run `flush` (synchronous: nothing asynchronous runs after `exit`) if the process exits while it is
 * registered; returns its unregister function. One listener serves every log, so a host with many
 * executors gets no MaxListenersExceededWarning.
 *
 * @example
 * const unregister = flushOnExit(() => appendFileSync(file, pending.join("")));
 * // … on close():
 * unregister();
 */
export function flushOnExit(flush: () => void): () => void {
  if (flushes.size === 0) process.on("exit", flushAll);
  flushes.add(flush);
  return () => {
    if (!flushes.delete(flush)) return;
    if (flushes.size === 0) process.off("exit", flushAll);
  };
}
