/**
 * Whether anyone listens: a host (or the CLI) registered an OpenTelemetry tracer or meter provider.
 * Without one, the API hands out no-op tracers and meters; the call path then skips span names,
 * attribute objects and context switches altogether, so toolexec costs nothing more than before;
 * while nothing at all is registered, the API is not even loaded (registered-api.ts).
 */
import type { Meter, TracerProvider } from "@opentelemetry/api";
import { registeredOpenTelemetry, type OpenTelemetryApi } from "./registered-api.js";

/** What the API hands out while nothing is registered, made once the API is loaded. */
let noops: { tracerProvider: TracerProvider; Meter: unknown } | undefined;
const noopsOf = (api: OpenTelemetryApi) => (noops ??= { tracerProvider: new api.ProxyTracerProvider().getDelegate(), Meter: api.createNoopMeter().constructor });

/** True once a tracer provider is registered globally (checked per call: a host may register one after `createExecutor`). */
export function isTracingEnabled(): boolean {
  const api = registeredOpenTelemetry();
  if (api === undefined) return false;
  const provider = api.trace.getTracerProvider();
  return !(provider instanceof api.ProxyTracerProvider) || provider.getDelegate() !== noopsOf(api).tracerProvider;
}

/** True when `meter` records somewhere (the global meter provider was registered before it was asked for). */
export function isMetering(meter: Meter): boolean {
  const api = registeredOpenTelemetry();
  return api !== undefined && !(meter instanceof (noopsOf(api).Meter as new () => Meter));
}

/**
 * Whether spans may carry content (arguments, results, MCP session ids): the GenAI conventions'
 * opt-in switch, `OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true`.
 */
export function isCapturingContent(environment: NodeJS.ProcessEnv = process.env): boolean {
  return environment.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT?.trim().toLowerCase() === "true";
}
