/** Small helpers between a call's span and the rest: running in its context, and its ids for the log. */
import type { Attributes, Span } from "@opentelemetry/api";
import type { CallSpan } from "./call-telemetry.js";
import { registeredOpenTelemetry } from "./registered-api.js";

/** Run `work` with `callSpan` as the active span (for the plugin's own spans and propagation). */
export function runInSpan<T>(callSpan: CallSpan, work: () => T): T {
  // A span exists only when a tracer provider is registered, so the API is loaded.
  return registeredOpenTelemetry()!.context.with(callSpan.context, work);
}

/**
 * `{ traceId, spanId }` for the execution log, so a line and its span can be found from each other;
 * empty when the span is not recording (not sampled, or no SDK), whose ids lead nowhere.
 */
export function spanIds(span: Span): { traceId?: string; spanId?: string } {
  if (!span.isRecording()) return {};
  const { traceId, spanId } = span.spanContext();
  return { traceId, spanId };
}

/**
 * Add attributes to the active span (a plugin's call runs in its `execute_tool` span's context):
 * `describe` runs only when that span records, so a plugin pays nothing when nobody traces.
 *
 * @example
 * annotateActiveSpan(() => ({ [ATTRIBUTE.processPid]: child.pid }));
 */
export function annotateActiveSpan(describe: () => Attributes): void {
  const span = registeredOpenTelemetry()?.trace.getActiveSpan();
  if (span?.isRecording()) span.setAttributes(describe());
}
