/**
 * `/healthz` and `/readyz` on the served HTTP port, for load balancers and orchestrators.
 * `/healthz` answers 200 while the process serves at all. `/readyz` answers 200 when this instance
 * should take traffic and 503 otherwise, with the reasons: the server is shutting down, or an MCP
 * server is still starting (`connecting`, `installing`). A server that failed, needs a login or is
 * retrying is reported but does not make the instance unready: its other tools work, and restarting
 * toolexec would not bring that server back. Both bodies are JSON; `toolexec servers` shows the same
 * states.
 */
import type { ServerResponse } from "node:http";
import type { Executor } from "../index.js";

export const HEALTH_PATH = "/healthz";
export const READY_PATH = "/readyz";

/** MCP server states during which an instance is not ready yet. */
const STARTING_STATES = new Set(["connecting", "installing"]);

export interface Readiness {
  ready: boolean;
  /** Why not ready; empty when ready. */
  reasons: string[];
  /** `ok`, or `stale` when the last edit was rejected and the last good config still runs (`lastError`). */
  config: { state: "ok" | "stale"; loadedAt: string; lastError?: { code: string; message: string } };
  servers: Array<{ name: string; state: string; tools: number; lastError?: { code: string; message: string } }>;
}

/**
 * @example
 * const readiness = checkReadiness(executor, false);
 * if (!readiness.ready) console.log(readiness.reasons.join("; "));
 */
export function checkReadiness(executor: Executor, closing: boolean): Readiness {
  const status = executor.configStatus();
  const config: Readiness["config"] = { state: status.state, loadedAt: new Date(status.loadedAt).toISOString() };
  if (status.lastError) config.lastError = { code: status.lastError.code, message: status.lastError.message };
  const servers = executor.servers().map((server) => ({
    name: server.name,
    state: server.state,
    tools: server.tools.length,
    ...(server.lastError ? { lastError: { code: server.lastError.code, message: server.lastError.message } } : {}),
  }));
  const reasons: string[] = [];
  if (closing) reasons.push("the server is shutting down");
  for (const server of servers) if (STARTING_STATES.has(server.state)) reasons.push(`MCP server "${server.name}" is ${server.state}`);
  return { ready: reasons.length === 0, reasons, config, servers };
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "content-type": "application/json", "cache-control": "no-store" });
  response.end(JSON.stringify(body));
}

/** Answer `/healthz` or `/readyz` (GET or HEAD; the caller checked the method and the credential). */
export function serveHealth(response: ServerResponse, path: string, executor: Executor, closing: boolean): void {
  if (path === HEALTH_PATH) return sendJson(response, 200, { status: "ok", uptimeSeconds: Math.round(process.uptime()) });
  let readiness: Readiness;
  try {
    readiness = checkReadiness(executor, closing);
  } catch (error) {
    // A closed executor answers EXECUTOR_CLOSED: not ready, and say why.
    return sendJson(response, 503, { ready: false, reasons: [(error as Error)?.message ?? String(error)] });
  }
  sendJson(response, readiness.ready ? 200 : 503, readiness);
}
