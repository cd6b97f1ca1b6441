/**
 * One `abort` listener per signal, however many watch it. The pipeline's calls watch their caller's
 * signal (a host may pass one signal to many calls at once), and code mode's runs watch its closing
 * signal (with runs sent ahead a pool of 6 holds 12). Past EventTarget's limit of 10 listeners Node
 * prints "Possible EventTarget memory leak detected" on the user's stderr; a set behind one listener
 * also spares each watcher an addEventListener/removeEventListener pair (and EventTarget's table churn).
 * The listener stays on the signal once its last watcher stops: a caller that passes one signal to call
 * after call would otherwise add and remove it for each. It holds no watcher, and goes with the signal.
 */

/** Told once when the watched signal aborts. An object, so a watcher on a hot path needs no closure. */
export interface AbortWatcher {
  signalAborted(reason: unknown): void;
}

const watchers = new WeakMap<AbortSignal, Set<AbortWatcher>>();

function watchersOf(signal: AbortSignal): Set<AbortWatcher> {
  let listeners = watchers.get(signal);
  if (listeners !== undefined) return listeners;
  const created = new Set<AbortWatcher>();
  listeners = created;
  watchers.set(signal, created);
  signal.addEventListener(
    "abort",
    () => {
      watchers.delete(signal);
      for (const watcher of created) {
        try {
          watcher.signalAborted(signal.reason);
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

/** Tell `watcher` once `signal` aborts (at once if it has). Watching twice with one watcher adds it once. */
export function watchAbort(signal: AbortSignal, watcher: AbortWatcher): void {
  if (signal.aborted) watcher.signalAborted(signal.reason);
  else watchersOf(signal).add(watcher);
}

/** Stop telling `watcher` of `signal`'s abort. */
export function unwatchAbort(signal: AbortSignal, watcher: AbortWatcher): void {
  watchers.get(signal)?.delete(watcher);
}

/**
 * Call `listener` once `signal` aborts (at once if it has); returns the function that stops it.
 *
 * @example
 * const stop = watchSharedAbort(closing.signal, (reason) => fail(reason));
 * stop(); // the run is over
 */
export function watchSharedAbort(signal: AbortSignal, listener: (reason: unknown) => void): () => void {
  const watcher: AbortWatcher = { signalAborted: listener };
  watchAbort(signal, watcher);
  return () => unwatchAbort(signal, watcher);
}
