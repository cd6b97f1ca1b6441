/**
 * `toolexec.server.state`: each MCP server's state as a state set (one series per server and state,
 * 1 for the state it is in and 0 for the others), observed when a meter collects, so a dashboard
 * or an alert can ask "which servers are not connected" without a missing series.
 */
import type { ObservableResult } from "@opentelemetry/api";
import { meterInstruments } from "../../core/telemetry/meter-instruments.js";
import { ATTRIBUTE, METRIC } from "../../core/telemetry/telemetry-names.js";
import type { McpServerInfo, McpServerState } from "./server-info.js";

const STATES: readonly McpServerState[] = ["connecting", "installing", "connected", "retrying", "failed", "needs-login", "unavailable", "disabled"];

const stateGauge = meterInstruments((meter) => meter.createObservableGauge(METRIC.serverState, { description: "MCP server state: 1 for the state each server is in, 0 for the others" }));

/**
 * Observe `servers()` while the plugin instance lives; returns the function that stops it.
 *
 * @example
 * const stop = observeServerStates(() => api.servers());
 */
export function observeServerStates(servers: () => McpServerInfo[]): () => void {
  const gauge = stateGauge();
  if (!gauge) return () => {};
  const callback = (result: ObservableResult) => {
    for (const server of servers()) {
      for (const state of STATES) result.observe(server.state === state ? 1 : 0, { [ATTRIBUTE.serverName]: server.name, [ATTRIBUTE.serverState]: state });
    }
  };
  gauge.addCallback(callback);
  return () => gauge.removeCallback(callback);
}
