/**
 * One MCP session's moving parts, as the steps of `openSession` share them, and what ends a
 * session: `dieSession` (it died or was reset) and `closeSessionTransport` (on purpose or after).
 */
import type { McpServerEntry } from "./config/resolve-mcp-server.js";
import type { Logger } from "../../core/plugin-contract.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { BuiltTransport, ConnectedTransportKind } from "./create-transport.js";
import type { SessionEvents } from "./mcp-session.js";
import type { PendingRequests } from "./pending-requests.js";
import type { SessionFailure } from "./session-failure.js";

/** Politeness on close: an HTTP session is ended with DELETE, if the server answers this fast. */
const TERMINATE_SESSION_MS = 500;

export interface SessionRun {
  readonly entry: McpServerEntry;
  readonly kind: ConnectedTransportKind;
  readonly events: SessionEvents;
  readonly logger: Logger;
  /** `Server "name"`, how messages begin. */
  readonly server: string;
  readonly requests: PendingRequests;
  alive: boolean;
  /** `initialize` finished. */
  connected: boolean;
  /** The transport's close, once begun. */
  closing?: Promise<void>;
  /** The last HTTP status of a POST, for a failed `initialize`. */
  lastStatus?: { status: number; retryAfterMs?: number };
  /** Ends the wait for `initialize` with a failure, while it lasts. */
  failConnect?: (failure: SessionFailure) => void;
  built?: BuiltTransport;
  /** `built.transport` as the session sees it (observed). */
  transport?: Transport;
}

/** The session ends (it died, or was reset): every request waiting ends with `failure`. */
export function dieSession(run: SessionRun, failure: SessionFailure): void {
  if (!run.alive) return;
  run.alive = false;
  // Requests still waiting were sent on this session, so they may have run, whatever ended it.
  const forPending: SessionFailure = failure.kind === "not-sent" ? { ...failure, kind: "lost" } : failure;
  run.requests.settleAll(forPending);
  run.failConnect?.(failure);
  if (run.connected) run.events.onDead(failure);
  void closeSessionTransport(run);
}

/** `politely`: end an HTTP session with DELETE first (on purpose only; a dead server would not answer). */
export function closeSessionTransport(run: SessionRun, politely = false): Promise<void> {
  run.closing ??= (async () => {
    const http = run.built?.transport as { terminateSession?: () => Promise<void> } | undefined;
    if (politely && run.kind === "http" && run.connected && http?.terminateSession) {
      await Promise.race([http.terminateSession().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, TERMINATE_SESSION_MS).unref())]);
    }
    // A stdio server's process group is stopped on a short schedule (stdio-transport.ts).
    await run.transport?.close().catch((error: unknown) => run.logger.debug(`Closing MCP server "${run.entry.name}": ${(error as Error).message}`));
  })();
  return run.closing;
}

/** A message larger than `maxResponseBytes`. */
export function tooLarge(run: SessionRun): SessionFailure {
  return {
    kind: "too-large",
    code: "OUTPUT_TOO_LARGE",
    message: `${run.server} answered with more than ${run.entry.maxResponseBytes} bytes (maxResponseBytes)`,
    details: { maxResponseBytes: run.entry.maxResponseBytes },
  };
}
