/**
 * Ends HTTP sessions their clients abandoned. MCP clients should end a session with DELETE, but one
 * that crashed or lost its network never does, and each session holds a server, its subscriptions
 * upstream and up to its event store's limit of memory. A session with no request open (a call, a
 * notification stream) for `idleMs` is closed; its client, if it comes back, gets 404 and starts a
 * new session, as MCP prescribes.
 */
import type { ServerResponse } from "node:http";

/** How long a session may have no request open before it is closed: 30 minutes. */
export const DEFAULT_SESSION_IDLE_MS = 30 * 60_000;

export interface SessionExpiry {
  /** A request of session `id` is open until `response` closes. */
  track(id: string, response: ServerResponse): void;
  /** The session ended: stop watching it. */
  forget(id: string): void;
  stop(): void;
}

/**
 * @example
 * const expiry = createSessionExpiry(DEFAULT_SESSION_IDLE_MS, (id) => void sessions.get(id)?.close());
 * expiry.track(sessionId, response);
 */
export function createSessionExpiry(idleMs: number, expire: (id: string) => void): SessionExpiry {
  const activity = new Map<string, { open: number; lastSeen: number }>();
  const sweep = () => {
    const now = Date.now();
    for (const [id, seen] of activity) {
      if (seen.open === 0 && now - seen.lastSeen >= idleMs) {
        activity.delete(id);
        expire(id);
      }
    }
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
      });
    },
    forget: (id) => void activity.delete(id),
    stop: () => clearInterval(timer),
  };
}
