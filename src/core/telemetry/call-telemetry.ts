/**
 * The pipeline's telemetry: one `execute_tool {tool}` span (INTERNAL) per call, child of the
 * caller's active context or of the call that made it (a code run's `call_tool`, a composed tool),
 * and the `toolexec.*` call metrics. With no tracer provider registered no span is started at all;
 * with no meter provider the instruments are the API's no-ops and no attribute object is built.
 */
import type { Context, Counter, Histogram, Meter, Span } from "@opentelemetry/api";
import { registeredOpenTelemetry, type OpenTelemetryApi } from "./registered-api.js";
import type { ToolResult } from "../tool-result.js";
import { ATTRIBUTE, DURATION_BUCKETS_SECONDS, EXECUTE_TOOL, INSTRUMENTATION_NAME, INSTRUMENTATION_VERSION, METRIC, QUEUE_WAIT_BUCKETS_SECONDS } from "./telemetry-names.js";
import { isMetering, isTracingEnabled } from "./tracing-enabled.js";

/** What the executor's gauges read when a meter collects. */
export interface CallGauges {
  queued(): number;
  running(): number;
}

export interface CallTelemetryOptions {
  /** Record arguments and results as `gen_ai.tool.call.arguments`/`.result` (opt-in: they may hold personal data). */
  captureContent: boolean;
  /** The value as it may leave the process: secrets redacted, size bounded, as JSON text. */
  scrub(value: unknown): string;
}

/** One call's span and the context its plugin (and sub-calls) run in. */
export interface CallSpan {
  span: Span;
  context: Context;
}

export interface CallTelemetry {
  /** The call's span, or undefined when nobody traces. `parent` is the context of the call that made this one, if any. */
  start(tool: string, executionId: string, parent: Context | undefined, toolCallId: string | undefined): CallSpan | undefined;
  /**
   * End the span (if any) with the call's outcome, and count the call. `plugin` is undefined when no
   * tool had the name: the metrics then say `_OTHER`, so names callers make up cannot grow them.
   */
  end(callSpan: CallSpan | undefined, result: ToolResult, plugin: string | undefined, args: unknown): void;
  /** A call waited `seconds` for its turn. */
  recordQueueWait(tool: string, seconds: number): void;
  /** Stop observing the executor's gauges (the executor closed). */
  close(): void;
}

/** OpenTelemetry's fallback value for a low-cardinality attribute. */
const OTHER = "_OTHER";

interface Instruments {
  calls: Counter;
  duration: Histogram;
  queueWait: Histogram;
}

function createInstruments(meter: Meter, gauges: CallGauges): { instruments: Instruments; close(): void } {
  const queued = meter.createObservableUpDownCounter(METRIC.callsQueued, { description: "Calls waiting for a concurrency slot", unit: "{call}" });
  const running = meter.createObservableUpDownCounter(METRIC.callsRunning, { description: "Calls under way past their turn (running in a plugin)", unit: "{call}" });
  const observeQueued = (result: { observe(value: number): void }) => result.observe(gauges.queued());
  const observeRunning = (result: { observe(value: number): void }) => result.observe(gauges.running());
  queued.addCallback(observeQueued);
  running.addCallback(observeRunning);
  const instruments: Instruments = {
    calls: meter.createCounter(METRIC.toolCalls, { description: "Tool calls through the pipeline, by tool and outcome", unit: "{call}" }),
    duration: meter.createHistogram(METRIC.toolDuration, { description: "Duration of tool calls, queueing included", unit: "s", advice: { explicitBucketBoundaries: [...DURATION_BUCKETS_SECONDS] } }),
    queueWait: meter.createHistogram(METRIC.queueWait, { description: "Time calls waited for a concurrency slot (calls that did not wait are not recorded)", unit: "s", advice: { explicitBucketBoundaries: [...QUEUE_WAIT_BUCKETS_SECONDS] } }),
  };
  return {
    instruments,
    close() {
      queued.removeCallback(observeQueued);
      running.removeCallback(observeRunning);
    },
  };
}

function endSpan(api: OpenTelemetryApi, telemetry: CallTelemetryOptions, { span }: CallSpan, result: ToolResult, plugin: string | undefined, args: unknown): void {
  if (plugin !== undefined) span.setAttribute(ATTRIBUTE.plugin, plugin);
  if (telemetry.captureContent) span.setAttribute(ATTRIBUTE.toolCallArguments, telemetry.scrub(args ?? {}));
  if (result.ok) {
    if (telemetry.captureContent) span.setAttribute(ATTRIBUTE.toolCallResult, telemetry.scrub(result.value));
  } else {
    span.setAttribute(ATTRIBUTE.errorType, result.error.code);
    span.setStatus({ code: api.SpanStatusCode.ERROR, message: result.error.message });
  }
  span.end();
}

/**
 * @example
 * const telemetry = createCallTelemetry({ captureContent: false, scrub: JSON.stringify }, { queued: () => 0, running: () => 0 });
 */
export function createCallTelemetry(options: CallTelemetryOptions, gauges: CallGauges): CallTelemetry {
  // Asked once: a meter provider must be registered before createExecutor (the CLI does so).
  const meter = registeredOpenTelemetry()?.metrics.getMeter(INSTRUMENTATION_NAME, INSTRUMENTATION_VERSION);
  const metered = meter !== undefined && isMetering(meter) ? createInstruments(meter, gauges) : undefined;
  return {
    start(tool, executionId, parent, toolCallId) {
      if (!isTracingEnabled()) return undefined;
      const api = registeredOpenTelemetry()!;
      const attributes: Record<string, string> = { [ATTRIBUTE.operationName]: EXECUTE_TOOL, [ATTRIBUTE.toolName]: tool, [ATTRIBUTE.executionId]: executionId };
      if (toolCallId !== undefined) attributes[ATTRIBUTE.toolCallId] = toolCallId;
      const parentContext = parent ?? api.context.active();
      // Asked per call (cheap: providers cache their tracers), so a provider registered after createExecutor is used.
      const span = api.trace.getTracer(INSTRUMENTATION_NAME, INSTRUMENTATION_VERSION).startSpan(`${EXECUTE_TOOL} ${tool}`, { kind: api.SpanKind.INTERNAL, attributes }, parentContext);
      return { span, context: api.trace.setSpan(parentContext, span) };
    },
    end(callSpan, result, plugin, args) {
      // A span exists only when a tracer provider is registered, so the API is loaded.
      if (callSpan?.span.isRecording()) endSpan(registeredOpenTelemetry()!, options, callSpan, result, plugin, args);
      else callSpan?.span.end();
      if (!metered) return;
      const seconds = result.durationMs / 1000;
      const tool = plugin === undefined ? OTHER : result.tool;
      const { calls, duration } = metered.instruments;
      if (result.ok) {
        calls.add(1, { [ATTRIBUTE.toolName]: tool, [ATTRIBUTE.outcome]: "ok" });
        duration.record(seconds, { [ATTRIBUTE.toolName]: tool });
      } else {
        calls.add(1, { [ATTRIBUTE.toolName]: tool, [ATTRIBUTE.outcome]: "error", [ATTRIBUTE.errorType]: result.error.code });
        duration.record(seconds, { [ATTRIBUTE.toolName]: tool, [ATTRIBUTE.errorType]: result.error.code });
      }
    },
    recordQueueWait(tool, seconds) {
      metered?.instruments.queueWait.record(seconds, { [ATTRIBUTE.toolName]: tool });
    },
    close() {
      metered?.close();
    },
  };
}
