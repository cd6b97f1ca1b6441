/**
 * A stateless replica keeps no events, yet a client whose call stream broke (its replica was killed
 * after the answer's headers went out, so the load balancer can only cut the stream) should hear so
 * at once, not at its request timeout. So the event ids of a stateless answer stream name the
 * requests it answers: `lost.<base64url JSON of the request ids>.<n>`. An MCP client (protocol
 * 2025-11-25 and later) whose stream breaks before the answer reconnects with a GET and that
 * `Last-Event-ID`; the load balancer sends it to a live replica, which cannot resume the stream and
 * answers each named request at once with a JSON-RPC error (`-32000`, the SDK's "connection closed").
 * Nothing is sent again: the call ran once or never, and the client decides whether to retry.
 */
import type { EventStore } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

type RequestId = string | number;

/** The JSON-RPC code of the answer: the MCP SDK's `ConnectionClosed`. */
export const LOST_CALL_ERROR_CODE = -32000;
/** What the client reads. */
export const LOST_CALL_MESSAGE = "The replica serving this request stopped before it answered (its stream broke): the request may or may not have run; retry it only if that is safe";

const PREFIX = "lost.";

function eventId(requestIds: readonly RequestId[], sequence: number): string {
  return `${PREFIX}${Buffer.from(JSON.stringify(requestIds)).toString("base64url")}.${sequence}`;
}

/** The request ids an event id names; undefined when it is not one of ours (or was altered). */
function requestIdsOf(id: string): RequestId[] | undefined {
  if (!id.startsWith(PREFIX)) return undefined;
  const [encoded] = id.slice(PREFIX.length).split(".");
  try {
    const ids = JSON.parse(Buffer.from(encoded ?? "", "base64url").toString("utf8")) as unknown;
    if (!Array.isArray(ids) || ids.length === 0 || ids.length > 100) return undefined;
    return ids.every((each) => typeof each === "string" || (typeof each === "number" && Number.isFinite(each))) ? (ids as RequestId[]) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The event store of a stateless request: for an answer stream (`streams`: a POST asking for progress)
 * or a resumption of one (a GET whose `Last-Event-ID` is ours); none otherwise.
 */
export function statelessEvents(request: { method?: string; headers: Record<string, string | string[] | undefined> }, body: unknown, streams: boolean): EventStore | undefined {
  if (streams) return createLostCallEvents(requestIdsIn(body));
  const lastEventId = request.headers["last-event-id"];
  return request.method === "GET" && typeof lastEventId === "string" && requestIdsOf(lastEventId) !== undefined ? createLostCallEvents() : undefined;
}

/** The request ids of a POST body (a request or a batch). */
function requestIdsIn(body: unknown): RequestId[] {
  const messages = Array.isArray(body) ? body : [body];
  return messages.flatMap((message) => {
    const id = (message as { id?: unknown; method?: unknown } | null)?.id;
    return (message as { method?: unknown } | null)?.method !== undefined && (typeof id === "string" || typeof id === "number") ? [id] : [];
  });
}

/**
 * The event store of one stateless exchange: an answer stream (`requestIds`: its POST's requests)
 * gets event ids naming them; a resumption (`requestIds` empty) answers the requests its
 * `Last-Event-ID` names with the lost-call error.
 *
 * @example
 * new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, eventStore: createLostCallEvents([7]) });
 */
export function createLostCallEvents(requestIds: readonly RequestId[] = []): EventStore {
  let sequence = 0;
  return {
    async storeEvent() {
      return eventId(requestIds, ++sequence);
    },
    async getStreamIdForEventId(id) {
      return requestIdsOf(id) === undefined ? undefined : `lost-${id}`;
    },
    async replayEventsAfter(lastEventId, { send }) {
      const lost = requestIdsOf(lastEventId) ?? [];
      for (const id of lost) {
        const message: JSONRPCMessage = { jsonrpc: "2.0", id, error: { code: LOST_CALL_ERROR_CODE, message: LOST_CALL_MESSAGE, data: { code: "SERVICE_UNAVAILABLE" } } };
        await send(eventId(lost, ++sequence), message);
      }
      return `lost-${lastEventId}`;
    },
  };
}
