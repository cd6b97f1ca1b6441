/** A real OpenTelemetry SDK for tests: spans kept in memory, the Node context manager and the W3C propagator registered globally. */
import { context, propagation, trace, type Span } from "@opentelemetry/api";
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const TRACE_META_SERVER = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "fixtures", "mcp", "trace-meta-server.mjs");

export interface TestTracing {
  exporter: InMemorySpanExporter;
  /** The finished span named `name` (exactly one expected). */
  span(name: string): ReadableSpan;
  spans(): ReadableSpan[];
  /** Unregister everything, so later tests of the file run without an SDK. */
  stop(): Promise<void>;
}

export function startTestTracing(): TestTracing {
  const exporter = new InMemorySpanExporter();
  const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  provider.register();
  const spans = () => exporter.getFinishedSpans();
  return {
    exporter,
    spans,
    span(name) {
      const found = spans().filter((span) => span.name === name);
      if (found.length !== 1) throw new Error(`Expected one span named "${name}", found ${found.length}: ${spans().map((span) => span.name).join(", ")}`);
      return found[0]!;
    },
    async stop() {
      await provider.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
}

/** The parent span id of a finished span (SDK 2.x: `parentSpanContext`). */
export function parentSpanId(span: ReadableSpan): string | undefined {
  return span.parentSpanContext?.spanId;
}

export function spanId(span: ReadableSpan | Span): string {
  return span.spanContext().spanId;
}
