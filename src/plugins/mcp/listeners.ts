/** A set of listeners whose `add` returns its own undo; a listener that unsubscribes while being told skips no other. */
export interface Listeners<Args extends unknown[] = []> {
  /** Returns the unsubscribe function. */
  add(listener: (...args: Args) => void): () => void;
  notify(...args: Args): void;
  clear(): void;
}

export function createListeners<Args extends unknown[] = []>(): Listeners<Args> {
  const listeners = new Set<(...args: Args) => void>();
  return {
    add(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    notify(...args) {
      for (const listener of [...listeners]) listener(...args);
    },
    clear: () => listeners.clear(),
  };
}
