/**
 * `/metrics` on the served HTTP port: the in-process registry in Prometheus text. The CLI registers
 * a registry before it creates the executor; a host passes its own (`HttpServeOptions.metrics`),
 * else the route answers 404 saying how to turn it on.
 */
import type { ServerResponse } from "node:http";
import type { MetricsRegistry } from "./metrics/metrics-registry.js";
import { PROMETHEUS_CONTENT_TYPE, toPrometheusText } from "./metrics/prometheus-text.js";

export const METRICS_PATH = "/metrics";

export async function serveMetrics(response: ServerResponse, registry: MetricsRegistry | undefined): Promise<void> {
  if (!registry) {
    response.writeHead(404, { "content-type": "application/json" });
    response.end(JSON.stringify({ error: "Metrics are off: pass `metrics: createMetricsRegistry()` to serveHttp and register its meterProvider before createExecutor (docs/observability.md)" }));
    return;
  }
  const text = toPrometheusText(await registry.collect());
  response.writeHead(200, { "content-type": PROMETHEUS_CONTENT_TYPE, "cache-control": "no-store" });
  response.end(text);
}
