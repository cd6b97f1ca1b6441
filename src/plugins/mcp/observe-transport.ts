/**
 * A transport that wraps another and lets the session watch it: what is sent (to learn the
 * JSON-RPC id the SDK gave a request), what arrives (progress, handled in order), errors (a
 * malformed message is one) and the close. It also keeps the ids of the requests sent and not yet
 * answered: the SDK drops an answer to an id it never sent with a log line, and the request it
 * was meant for waits out its whole budget. The SDK's Client sees an ordinary transport.
 */
import type { Transport, TransportSendOptions } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

export interface TransportHooks {
  /** Called synchronously when the SDK sends, before the message leaves. */
  onSend(message: JSONRPCMessage): void;
  /** Sees each incoming message first; returning true keeps it from the Client. */
  onMessage(message: JSONRPCMessage): boolean;
  /** Called before the Client hears of the error. */
  onError(error: Error): void;
  /** Called before the Client fails its pending requests with "Connection closed". */
  onClose(): void;
  /** An answer whose id matches no request sent and unanswered; it is not passed on. */
  onUnknownReply(id: string | number, text: string): void;
}

/**
 * Ids kept at most. A request whose POST failed (a refused connection, a 503) is never answered, and
 * its id would stay for the session's life; past this many the oldest go (a late answer to one of
 * them would then read as never sent).
 */
const MAX_AWAITED_IDS = 10_000;

/** The members an SDK v2 transport adds, passed through for the v2 client. */
interface ModernTransportMembers {
  hasPerRequestStream?: boolean;
  setSupportedProtocolVersions?(versions: string[]): void;
}

const isResponse = (message: JSONRPCMessage): message is JSONRPCMessage & { id: string | number } => "id" in message && !("method" in message);

/**
 * @example
 * await client.connect(observeTransport(new StdioClientTransport(params), hooks));
 */
export function observeTransport(inner: Transport, hooks: TransportHooks): Transport {
  // Answered ids leave the set; a request the SDK gave up on (timeout, cancel) stays until its late
  // answer comes, which is then passed on, as the SDK expects.
  const awaiting = new Set<string | number>();
  const outer: Transport = {
    start: () => inner.start(),
    send(message: JSONRPCMessage, options?: TransportSendOptions) {
      hooks.onSend(message);
      if ("method" in message && "id" in message) {
        awaiting.add(message.id);
        if (awaiting.size > MAX_AWAITED_IDS) awaiting.delete(awaiting.values().next().value!);
      }
      return inner.send(message, options);
    },
    close: () => inner.close(),
    get sessionId() {
      return inner.sessionId;
    },
    setProtocolVersion: (version: string) => inner.setProtocolVersion?.(version),
    // What the SDK v2 client asks of a transport on a 2026-07-28 connection (modern-client.ts).
    get hasPerRequestStream() {
      return (inner as ModernTransportMembers).hasPerRequestStream;
    },
    setSupportedProtocolVersions: (versions: string[]) => (inner as ModernTransportMembers).setSupportedProtocolVersions?.(versions),
  } as Transport;
  inner.onmessage = (message, extra) => {
    if (isResponse(message) && !awaiting.delete(message.id)) {
      const text = JSON.stringify(message);
      return hooks.onUnknownReply(message.id, text.length > 80 ? `${text.slice(0, 77)}...` : text);
    }
    if (!hooks.onMessage(message)) outer.onmessage?.(message, extra);
  };
  inner.onerror = (error) => {
    hooks.onError(error);
    outer.onerror?.(error);
  };
  inner.onclose = () => {
    hooks.onClose();
    outer.onclose?.();
  };
  return outer;
}
