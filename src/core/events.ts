/** A tiny typed event emitter: `on` returns its own undo, and a throwing listener never breaks a call. */

export type Unsubscribe = () => void;

export interface Emitter<Events extends object> {
  on<Name extends keyof Events>(event: Name, listener: (payload: Events[Name]) => void): Unsubscribe;
  emit<Name extends keyof Events>(event: Name, payload: Events[Name]): void;
  hasListeners(event: keyof Events): boolean;
  clear(): void;
}

export function createEmitter<Events extends object>(onListenerError: (event: string, error: unknown) => void): Emitter<Events> {
  const listeners = new Map<keyof Events, Set<(payload: never) => void>>();
  return {
    on(event, listener) {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      const entry = listener as (payload: never) => void;
      set.add(entry);
      return () => {
        set.delete(entry);
      };
    },
    emit(event, payload) {
      const set = listeners.get(event);
      if (!set) return;
      for (const listener of [...set]) {
        try {
          (listener as (payload: unknown) => void)(payload);
        } catch (error) {
          onListenerError(String(event), error);
        }
      }
    },
    hasListeners(event) {
      return (listeners.get(event)?.size ?? 0) > 0;
    },
    clear() {
      listeners.clear();
    },
  };
}
