/**
 * Ends HTTP sessions their clients abandoned. MCP clients should end a session with DELETE, but one
 * that crashed or lost its network never does, and each session holds a server, its subscriptions
 * upstream and up to its event store's limit of memory. A session with no request open (a call, a
 * notification stream) for `idleMs` is closed; its client, if it comes back, gets 404 and starts a
 * new session, as MCP prescribes. At most `maxSessions` are kept: a new one past the cap ends the
 * session idle the longest, so clients that never close cannot grow memory until the idle expiry
 * (10,000 never-closed sessions held 373 MB).
 */
import type { ServerResponse } from "node:http";

/** How long a session may have no request open before it is closed: 30 minutes. */
export const DEFAULT_SESSION_IDLE_MS = 30 * 60_000;
/** Most sessions served at once; past it the one idle the longest is closed (each holds ~50 KB and up to its event store's bytes). */
export const DEFAULT_MAX_SESSIONS = 1_000;

export interface SessionExpiry {
  /** A request of session `id` is open until `response` closes. */
  track(id: string, response: ServerResponse): void;
  /** The session ended: stop watching it. */
  forget(id: string): void;
  /**
   * Room for one more session: when `maxSessions` are served, the one idle the longest is closed.
   * False when every session has a request open (the new one must be refused).
   */
  makeRoom(): boolean;
  stop(): void;
}

/**
 * @example
 * const expiry = createSessionExpiry({ idleMs: DEFAULT_SESSION_IDLE_MS, maxSessions: 1000 }, (id) => void sessions.get(id)?.close());
 * if (!expiry.makeRoom()) refuse();
 * expiry.track(sessionId, response);
 */
export function createSessionExpiry(limits: { idleMs: number; maxSessions: number }, expire: (id: string) => void): SessionExpiry {
  const { idleMs, maxSessions } = limits;
  // In order of last activity, the longest idle first: a session moves to the end when its last request closes.
  const activity = new Map<string, { open: number; lastSeen: number }>();
  const end = (id: string) => {
    activity.delete(id);
    expire(id);
  };
  const sweep = () => {
    const now = Date.now();
    for (const [id, seen] of activity) if (seen.open === 0 && now - seen.lastSeen >= idleMs) end(id);
  };
  // Checked a few times per idle period: a session ends at most a quarter period late.
  const timer = setInterval(sweep, Math.max(10, Math.min(idleMs / 4, 60_000)));
  timer.unref();
  return {
    track(id, response) {
      let seen = activity.get(id);
      if (!seen) activity.set(id, (seen = { open: 0, lastSeen: Date.now() }));
      seen.open++;
      const entry = seen;
      response.once("close", () => {
        entry.open--;
        entry.lastSeen = Date.now();
        if (entry.open === 0 && activity.get(id) === entry) {
          activity.delete(id);
          activity.set(id, entry);
        }
      });
    },
    forget: (id) => void activity.delete(id),
    makeRoom() {
      if (activity.size < maxSessions) return true;
      for (const [id, seen] of activity) {
        if (seen.open === 0) {
          end(id);
          return true;
        }
      }
      return false;
    },
    stop: () => clearInterval(timer),
  };
}
