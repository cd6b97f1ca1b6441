/**
 * Which caller a server's own request or log message belongs to. MCP gives a server→client request
 * (elicitation, sampling) or a log message no link to the call that caused it (stdio has no streams
 * to tell them apart), so it is routed by what is under way on that server: when every call in
 * flight there comes from one caller (one client session: the same `sessionId`, or the same caller
 * object), it is that caller's; otherwise nobody's, and the host's handlers answer (a person must
 * never be asked a question meant for another).
 */
import type { CallerInfo } from "../../core/plugin-contract.js";

export interface CallerRoutes {
  /** A call to the server began; the returned function says it ended. */
  enter(caller: CallerInfo | undefined): () => void;
  /** The caller every call under way shares (its latest call's), or undefined when none runs or they differ. */
  current(): CallerInfo | undefined;
}

/**
 * @example
 * const routes = createCallerRoutes();
 * const leave = routes.enter(options.caller);
 * try { await send(); } finally { leave(); }
 */
export function createCallerRoutes(): CallerRoutes {
  /** Calls under way per caller session; `null` stands for calls without a caller (the host's own). */
  const running = new Map<unknown, { count: number; caller: CallerInfo | undefined }>();
  return {
    enter(caller) {
      const key = caller?.sessionId ?? caller ?? null;
      const entry = running.get(key);
      if (entry) {
        entry.count++;
        entry.caller = caller;
      } else running.set(key, { count: 1, caller });
      let left = false;
      return () => {
        if (left) return;
        left = true;
        const now = running.get(key)!;
        if (--now.count === 0) running.delete(key);
      };
    },
    current() {
      if (running.size !== 1) return undefined;
      const [only] = running.values();
      return only!.caller;
    },
  };
}
