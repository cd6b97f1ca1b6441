/**
 * Whether anyone listens: a host (or the CLI) registered an OpenTelemetry tracer or meter provider.
 * Without one, the API hands out no-op tracers and meters; the call path then skips span names,
 * attribute objects and context switches altogether, so toolexec costs nothing more than before.
 */
import { ProxyTracerProvider, createNoopMeter, trace, type Meter } from "@opentelemetry/api";

/** The provider a `ProxyTracerProvider` falls back to while nothing is registered. */
const NOOP_TRACER_PROVIDER = new ProxyTracerProvider().getDelegate();
const NoopMeter = createNoopMeter().constructor;

/** True once a tracer provider is registered globally (checked per call: a host may register one after `createExecutor`). */
export function isTracingEnabled(): boolean {
  const provider = trace.getTracerProvider();
  return !(provider instanceof ProxyTracerProvider) || provider.getDelegate() !== NOOP_TRACER_PROVIDER;
}

/** True when `meter` records somewhere (the global meter provider was registered before it was asked for). */
export function isMetering(meter: Meter): boolean {
  return !(meter instanceof NoopMeter);
}

/**
 * Whether spans may carry content (arguments, results, MCP session ids): the GenAI conventions'
 * opt-in switch, `OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true`.
 */
export function isCapturingContent(environment: NodeJS.ProcessEnv = process.env): boolean {
  return environment.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT?.trim().toLowerCase() === "true";
}
