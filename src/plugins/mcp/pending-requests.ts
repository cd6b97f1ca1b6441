/**
 * The requests a session has under way, known by the JSON-RPC id the SDK gave them (learned as the
 * message is sent), so a failure seen elsewhere (an HTTP status, a broken answer stream, an answer
 * too large) ends exactly the request it belongs to. Also routes progress to its request.
 */
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { ToolProgress } from "../../core/plugin-contract.js";
import type { SessionFailure } from "./session-failure.js";

export interface PendingRequest {
  id?: number;
  /** HTTP status of the POST that carried it, when one came back. */
  status?: number;
  retryAfterMs?: number;
  /** Ends the request with `failure` (first call wins). */
  settle(failure: SessionFailure): void;
  /** Resolves with the failure given to `settle`. */
  readonly settled: Promise<SessionFailure>;
  /** The progress token sent with it, when progress was asked for. */
  progressToken?: string;
}

export interface PendingRequests {
  /** Register a request about to be sent; the next request message sent gets bound to it. */
  begin(onProgress?: (progress: ToolProgress) => void): { pending: PendingRequest; progressToken?: string };
  /** Call once the SDK's `request()` returned: later messages are not this request's. */
  sentAll(): void;
  /** Hook for every outgoing message: binds the request being sent to its id. */
  onSend(message: JSONRPCMessage): void;
  /** Hook for every incoming message: delivers progress in arrival order; true when consumed. */
  onMessage(message: JSONRPCMessage): boolean;
  withId(id: number): PendingRequest | undefined;
  end(pending: PendingRequest): void;
  settleAll(failure: SessionFailure): void;
}

export function createPendingRequests(): PendingRequests {
  const pending = new Set<PendingRequest>();
  const byId = new Map<number, PendingRequest>();
  const progress = new Map<string, { request: PendingRequest; listener: (progress: ToolProgress) => void }>();
  let sending: PendingRequest | undefined;
  let tokens = 0;
  return {
    begin(onProgress) {
      let settle!: (failure: SessionFailure) => void;
      const settled = new Promise<SessionFailure>((resolve) => (settle = resolve));
      const request: PendingRequest = { settle: (failure) => settle(failure), settled };
      pending.add(request);
      sending = request;
      if (!onProgress) return { pending: request };
      const progressToken = `toolexec-${++tokens}`;
      request.progressToken = progressToken;
      progress.set(progressToken, { request, listener: onProgress });
      return { pending: request, progressToken };
    },
    sentAll() {
      sending = undefined;
    },
    onSend(message) {
      if (sending && "method" in message && "id" in message && typeof message.id === "number") {
        sending.id = message.id;
        byId.set(message.id, sending);
      }
    },
    onMessage(message) {
      // The SDK handles notifications a tick later than responses, so a call's last progress
      // notification would arrive after its answer and be dropped; here it keeps its place.
      if (!("method" in message) || message.method !== "notifications/progress" || "id" in message) return false;
      const { progressToken, progress: done, total, message: text } = (message.params ?? {}) as Record<string, unknown>;
      const route = progress.get(progressToken as string);
      if (route && typeof done === "number") {
        route.listener({ progress: done, ...(typeof total === "number" ? { total } : {}), ...(typeof text === "string" ? { message: text } : {}) });
      }
      return true;
    },
    withId: (id) => byId.get(id),
    end(request) {
      pending.delete(request);
      if (request.id !== undefined) byId.delete(request.id);
      if (request.progressToken !== undefined) progress.delete(request.progressToken);
    },
    settleAll(failure) {
      for (const request of pending) request.settle(failure);
    },
  };
}
