/**
 * The operator's routes of the served HTTP port — `/metrics`, `/healthz`, `/readyz` — behind the
 * same Host/Origin checks as the MCP endpoint. GET and HEAD only. `/metrics` and `/readyz` need an
 * operator's credential whenever the endpoint needs a credential at all: the static token, or an API
 * key or JWT with the `toolexec:operator` scope (docs/identity.md). `/healthz` (liveness) needs the
 * static token when there is one, as before, and nothing else: a probe with no credential keeps working.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Executor } from "../index.js";
import { HEALTH_PATH, READY_PATH, serveHealth } from "./health-routes.js";
import { checkRequest, type GuardOptions } from "./http-guard.js";
import type { OperatorVerdict } from "./identity/served-identity.js";
import type { MetricsRegistry } from "./metrics/metrics-registry.js";
import { METRICS_PATH, serveMetrics } from "./metrics-route.js";

const PATHS = new Set([METRICS_PATH, HEALTH_PATH, READY_PATH]);

export interface OperatorRoutes {
  handles(path: string): boolean;
  handle(request: IncomingMessage, response: ServerResponse, path: string): Promise<void>;
}

/**
 * @example
 * const operator = createOperatorRoutes(executor, { guard, metrics, closing: () => closing });
 * if (operator.handles(url.pathname)) return operator.handle(request, response, url.pathname);
 */
export function createOperatorRoutes(executor: Executor, options: { guard: GuardOptions; metrics: MetricsRegistry | undefined; closing(): boolean; authorize(request: IncomingMessage): Promise<OperatorVerdict> }): OperatorRoutes {
  return {
    handles: (path) => PATHS.has(path),
    async handle(request, response, path) {
      const checked = checkRequest(request, path === HEALTH_PATH ? options.guard : { ...options.guard, token: undefined });
      const verdict = checked.ok && path !== HEALTH_PATH ? await options.authorize(request) : checked.ok ? checked : { ...checked, headers: checked.status === 401 ? { "www-authenticate": "Bearer" } : {} };
      if (!verdict.ok) {
        response.writeHead(verdict.status, { "content-type": "application/json", ...verdict.headers });
        return void response.end(JSON.stringify({ error: verdict.message }));
      }
      if (request.method !== "GET" && request.method !== "HEAD") {
        response.writeHead(405, { "content-type": "application/json", allow: "GET, HEAD" });
        return void response.end(JSON.stringify({ error: `${path} answers GET and HEAD only, got ${request.method}` }));
      }
      if (path === METRICS_PATH) return serveMetrics(response, options.metrics);
      serveHealth(response, path, executor, options.closing());
    },
  };
}
