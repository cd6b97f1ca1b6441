/**
 * The events one HTTP session sent on its SSE streams, kept so a client whose stream broke (or was
 * closed mid-call) can reconnect with `Last-Event-ID` and receive what it missed. Memory is bounded
 * per session: past `maxEvents` events or `maxBytes` of JSON the oldest are dropped, and a client
 * that resumes from a dropped event is refused (it starts over).
 */
import type { EventStore } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

/** Events one session keeps for resumption (the oldest go first). */
export const DEFAULT_RESUMABLE_EVENTS = 1_000;
/** JSON bytes of events one session keeps for resumption (the oldest go first). */
export const DEFAULT_RESUMABLE_BYTES = 4 * 1024 * 1024;

interface StoredEvent {
  streamId: string;
  message: JSONRPCMessage;
  bytes: number;
}

/**
 * @example
 * const transport = new StreamableHTTPServerTransport({ sessionIdGenerator, eventStore: createSessionEventStore() });
 */
export function createSessionEventStore(limits: { maxEvents?: number; maxBytes?: number } = {}): EventStore {
  const maxEvents = limits.maxEvents ?? DEFAULT_RESUMABLE_EVENTS;
  const maxBytes = limits.maxBytes ?? DEFAULT_RESUMABLE_BYTES;
  /** Insertion-ordered: the first entry is the oldest. */
  const events = new Map<string, StoredEvent>();
  let bytes = 0;
  let sequence = 0;

  const dropOldest = () => {
    for (const [id, event] of events) {
      if (events.size <= maxEvents && bytes <= maxBytes) return;
      events.delete(id);
      bytes -= event.bytes;
    }
  };

  return {
    async storeEvent(streamId, message) {
      const id = `${++sequence}`;
      const size = JSON.stringify(message).length;
      events.set(id, { streamId, message, bytes: size });
      bytes += size;
      dropOldest();
      return id;
    },
    async getStreamIdForEventId(eventId) {
      return events.get(eventId)?.streamId;
    },
    async replayEventsAfter(lastEventId, { send }) {
      const last = events.get(lastEventId);
      if (!last) throw new Error(`Event ${lastEventId} is no longer kept; start over`);
      let after = false;
      for (const [id, event] of [...events]) {
        if (after && event.streamId === last.streamId) await send(id, event.message);
        else if (id === lastEventId) after = true;
      }
      return last.streamId;
    },
  };
}
