/**
 * The requests a session has under way, known by the JSON-RPC id the SDK gave them (learned as the
 * message is sent), so a failure seen elsewhere (an HTTP status, a broken answer stream, an answer
 * too large) ends exactly the request it belongs to. Also routes progress to its request.
 */
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { ToolProgress } from "../../core/plugin-contract.js";
import type { SessionFailure } from "./session-failure.js";

export type RequestOutcome<T> = { ok: true; value: T } | { ok: false; failure: SessionFailure };

export interface PendingRequest {
  id?: number;
  /** HTTP status of the POST that carried it, when one came back. */
  status?: number;
  retryAfterMs?: number;
  /** Ends the request from outside the SDK with `failure` (first of `settle` and `answer` wins). */
  settle(failure: SessionFailure): void;
  /** Ends the request with what the SDK made of it (first of `settle` and `answer` wins). */
  answer(outcome: RequestOutcome<unknown>): void;
  /** Resolves with the outcome given to `settle` or `answer`. */
  readonly outcome: Promise<RequestOutcome<unknown>>;
  /** True when `settle` ended it: the SDK still waits for an answer and should be told to forget it. */
  readonly settledHere: boolean;
  /** The progress token sent with it, when progress was asked for. */
  progressToken?: string;
}

export interface PendingRequests {
  /** Register a request about to be sent; the next request message sent gets bound to it. */
  begin(onProgress?: (progress: ToolProgress) => void): PendingRequest;
  /** Call once the SDK's `request()` returned: later messages are not this request's. */
  sentAll(): void;
  /** Hook for every outgoing message: binds the request being sent to its id. */
  onSend(message: JSONRPCMessage): void;
  /** Hook for every incoming message: delivers progress in arrival order; true when consumed. */
  onMessage(message: JSONRPCMessage): boolean;
  withId(id: number): PendingRequest | undefined;
  /** The request under way when there is exactly one. */
  onlyOne(): PendingRequest | undefined;
  end(pending: PendingRequest): void;
  settleAll(failure: SessionFailure): void;
}

/**
 * One promise per request, resolved by whichever comes first: the SDK's answer or a failure seen
 * elsewhere. (A race of two promises costs three more allocations and a microtask hop per call.)
 */
function createPendingRequest(): PendingRequest {
  let resolve!: (outcome: RequestOutcome<unknown>) => void;
  let done = false;
  const request: PendingRequest = {
    settledHere: false,
    outcome: new Promise<RequestOutcome<unknown>>((resolver) => (resolve = resolver)),
    settle(failure) {
      if (done) return;
      done = true;
      (request as { settledHere: boolean }).settledHere = true;
      resolve({ ok: false, failure });
    },
    answer(outcome) {
      if (done) return;
      done = true;
      resolve(outcome);
    },
  };
  return request;
}

export function createPendingRequests(): PendingRequests {
  const pending = new Set<PendingRequest>();
  const byId = new Map<number, PendingRequest>();
  const progress = new Map<string, { request: PendingRequest; listener: (progress: ToolProgress) => void }>();
  let sending: PendingRequest | undefined;
  let tokens = 0;
  return {
    begin(onProgress) {
      const request = createPendingRequest();
      pending.add(request);
      sending = request;
      if (!onProgress) return request;
      const progressToken = `toolexec-${++tokens}`;
      request.progressToken = progressToken;
      progress.set(progressToken, { request, listener: onProgress });
      return request;
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
    onlyOne: () => (pending.size === 1 ? pending.values().next().value : undefined),
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
