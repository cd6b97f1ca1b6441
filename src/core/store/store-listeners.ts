/** The subscribers of a store, by key prefix (a `resync` reaches all); a listener that throws does not stop the others. */
import type { StoreChange, StoreKey } from "./store.js";

export interface StoreListeners {
  /** Add a listener for keys starting with `prefix`; returns its undo function. */
  add(prefix: StoreKey, listener: (change: StoreChange) => void): () => void;
  emit(change: StoreChange): void;
  /** How many listeners there are. */
  readonly size: number;
  clear(): void;
}

export function createStoreListeners(): StoreListeners {
  const entries = new Set<{ prefix: StoreKey; listener: (change: StoreChange) => void }>();
  return {
    add(prefix, listener) {
      const entry = { prefix, listener };
      entries.add(entry);
      return () => void entries.delete(entry);
    },
    emit(change) {
      for (const entry of [...entries]) {
        if (change.kind !== "resync" && !change.key.startsWith(entry.prefix)) continue;
        try {
          entry.listener(change);
        } catch {
          // One subscriber's fault must not keep the change from the others.
        }
      }
    },
    get size() {
      return entries.size;
    },
    clear() {
      entries.clear();
    },
  };
}
