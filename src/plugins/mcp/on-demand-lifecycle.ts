/**
 * Stdio servers that run only while they are needed: a `lazy` server is not started with the
 * executor (its tools come from the list its last run cached), and a server with `idleTimeoutMs` is
 * stopped after that long without use and started again by the next call. Use is counted, not
 * guessed: a request under way (from the moment it asks for a session) or a resource subscription
 * holds the server, so an idle stop never cuts off a call; a call that comes after the stop began
 * waits for the old process to end and starts a new one (one process per server at any time).
 */
import type { StdioServerEntry } from "./config/resolve-mcp-server.js";
import { toEntryTools } from "./connect-server.js";
import type { ConnectionRun } from "./connection-lifecycle.js";

/** The server runs only while needed: stdio with `start: "lazy"` (the entry's, else the executor's default). */
export function isLazy(run: ConnectionRun): run is ConnectionRun & { entry: StdioServerEntry } {
  return run.entry.transport === "stdio" && (run.entry.start ?? run.context.defaultStart) === "lazy";
}

/**
 * A lazy server with a cached list takes it and stays `stopped`: true. False when it must start now
 * (not lazy, or no list yet: its tools are listed with the executor's, so it starts to learn them).
 */
export async function stayStopped(run: ConnectionRun): Promise<boolean> {
  if (!isLazy(run) || !run.context.toolCache) return false;
  const listed = await run.context.toolCache.read(run.entry);
  if (listed === undefined || run.closed || run.session || run.attempt) return false;
  run.state = "stopped";
  run.tools.set(toEntryTools(run.entry, listed, run.context.logger));
  return true;
}

/** Mark the server in use until the returned function is called (once). */
export function holdServer(run: ConnectionRun): () => void {
  run.busy++;
  clearTimeout(run.idleTimer);
  run.idleTimer = undefined;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    run.busy--;
    armIdleStop(run);
  };
}

/** With nothing under way on a live stdio session, stop it once `idleTimeoutMs` passes unused. */
export function armIdleStop(run: ConnectionRun): void {
  const { entry } = run;
  if (entry.transport !== "stdio" || entry.idleTimeoutMs === undefined || run.busy > 0 || run.closed || !run.session?.alive) return;
  clearTimeout(run.idleTimer);
  run.idleTimer = setTimeout(() => stopIdle(run, entry.idleTimeoutMs!), entry.idleTimeoutMs);
  run.idleTimer.unref();
}

/**
 * Stop the idle server: the session is let go at once (a call after this point starts a new one,
 * after this one's process ended), then closed. The timer re-checks use, in case a call came in
 * the same turn.
 */
function stopIdle(run: ConnectionRun, idleMs: number): void {
  run.idleTimer = undefined;
  const live = run.session;
  if (run.busy > 0 || run.closed || !live?.alive) return;
  run.session = undefined;
  run.state = "idle";
  const stopping = live.close().finally(() => {
    if (run.stopping === stopping) run.stopping = undefined;
  });
  run.stopping = stopping;
  // Told last: a listener may call the server at once, and that call must find the stop under way.
  run.context.logger.debug(`MCP server "${run.entry.name}" stopped after ${idleMs} ms unused; the next call starts it again`);
  run.context.emit("server:stopped", { server: run.entry.name, reason: "idle", idleMs });
}
