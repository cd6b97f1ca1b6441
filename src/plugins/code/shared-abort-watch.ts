/**
 * One `abort` listener per signal, however many watch it. Every run under way or waiting in a
 * runtime watches code mode's closing signal; with runs sent ahead a pool of 6 holds 12, past
 * EventTarget's limit of 10 listeners, and Node then prints "Possible EventTarget memory leak
 * detected" on the user's stderr. A set behind one listener also spares each run an
 * addEventListener/removeEventListener pair (and EventTarget's table churn) on the host.
 */
type AbortListener = (reason: unknown) => void;

const watchers = new WeakMap<AbortSignal, Set<AbortListener>>();

function listenersOf(signal: AbortSignal): Set<AbortListener> {
  let listeners = watchers.get(signal);
  if (listeners !== undefined) return listeners;
  const created = new Set<AbortListener>();
  listeners = created;
  watchers.set(signal, created);
  signal.addEventListener(
    "abort",
    () => {
      watchers.delete(signal);
      for (const listener of created) {
        try {
          listener(signal.reason);
        } catch (error) {
          // As EventTarget reports a listener's exception: uncaught, and the others still hear it.
          process.nextTick(() => {
            throw error;
          });
        }
      }
      created.clear();
    },
    { once: true },
  );
  return listeners;
}

/**
 * Call `listener` once `signal` aborts (at once if it has); returns the function that stops it.
 * Each function watches once: watching with the same function twice adds it once.
 *
 * @example
 * const stop = watchSharedAbort(closing.signal, (reason) => fail(reason));
 * stop(); // the run is over
 */
export function watchSharedAbort(signal: AbortSignal, listener: AbortListener): () => void {
  if (signal.aborted) {
    listener(signal.reason);
    return () => undefined;
  }
  const listeners = listenersOf(signal);
  listeners.add(listener);
  return () => void listeners.delete(listener);
}
