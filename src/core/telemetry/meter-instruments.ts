/**
 * Instruments made from the global meter provider and remade only when that provider changes: a
 * module can hold its histogram without asking the API on every request, and a host that registers
 * its SDK late (or a test that swaps providers) is still heard.
 */
import type { Meter } from "@opentelemetry/api";
import { registeredOpenTelemetry } from "./registered-api.js";
import { INSTRUMENTATION_NAME, INSTRUMENTATION_VERSION } from "./telemetry-names.js";
import { isMetering } from "./tracing-enabled.js";

/**
 * @example
 * const durations = meterInstruments((meter) => meter.createHistogram("mcp.client.operation.duration", { unit: "s" }));
 * durations()?.record(0.012, { "mcp.method.name": "tools/call" });
 */
export function meterInstruments<T>(build: (meter: Meter) => T): () => T | undefined {
  let provider: unknown;
  let built: T | undefined;
  return () => {
    // No API loaded: nothing registered a provider, so there is nothing to record into yet.
    const current = registeredOpenTelemetry()?.metrics.getMeterProvider();
    if (current === undefined) return undefined;
    if (current !== provider) {
      provider = current;
      const meter = current.getMeter(INSTRUMENTATION_NAME, INSTRUMENTATION_VERSION);
      built = isMetering(meter) ? build(meter) : undefined;
    }
    return built;
  };
}
