/**
 * A transport that wraps another and lets the session watch it: what is sent (to learn the
 * JSON-RPC id the SDK gave a request), what arrives (progress, handled in order), errors (a
 * malformed message is one) and the close. The SDK's Client sees an ordinary transport.
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
}

/**
 * @example
 * await client.connect(observeTransport(new StdioClientTransport(params), hooks));
 */
export function observeTransport(inner: Transport, hooks: TransportHooks): Transport {
  const outer: Transport = {
    start: () => inner.start(),
    send(message: JSONRPCMessage, options?: TransportSendOptions) {
      hooks.onSend(message);
      return inner.send(message, options);
    },
    close: () => inner.close(),
    get sessionId() {
      return inner.sessionId;
    },
    setProtocolVersion: (version: string) => inner.setProtocolVersion?.(version),
  };
  inner.onmessage = (message, extra) => {
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
