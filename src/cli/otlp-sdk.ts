/**
 * The OpenTelemetry SDK the CLI starts when `OTEL_EXPORTER_OTLP_ENDPOINT` is set: traces through a
 * batch span processor and metrics through a periodic reader, both over OTLP/HTTP. The packages are
 * optional peer dependencies, loaded only here; the standard variables are honoured
 * (`OTEL_EXPORTER_OTLP_PROTOCOL` `http/protobuf` (default) or `http/json` for traces — metrics go as
 * `http/json` either way —, `OTEL_SERVICE_NAME`, `OTEL_RESOURCE_ATTRIBUTES`, `OTEL_TRACES_SAMPLER`,
 * `OTEL_BSP_*`, `OTEL_METRIC_EXPORT_INTERVAL`, and the exporters' own endpoint and header variables).
 */
import type { MeterProvider } from "@opentelemetry/api";
import { CliError } from "./usage-error.js";

/** What to install for the CLI to export telemetry; named in the message when one is missing. */
export const OTLP_SDK_PACKAGES = [
  "@opentelemetry/sdk-trace-node",
  "@opentelemetry/sdk-trace-base",
  "@opentelemetry/sdk-metrics",
  "@opentelemetry/resources",
  "@opentelemetry/exporter-trace-otlp-proto",
  "@opentelemetry/exporter-trace-otlp-http",
  "@opentelemetry/exporter-metrics-otlp-http",
] as const;

export interface OtlpSdk {
  meterProvider: MeterProvider;
  /** Register the tracer provider globally (with the Node context manager and the W3C propagators). */
  registerTracing(): void;
  /** Export what is pending, then stop. */
  shutdown(): Promise<void>;
}

const DEFAULT_METRIC_EXPORT_INTERVAL_MS = 60_000;

function protocolOf(environment: NodeJS.ProcessEnv): "http/protobuf" | "http/json" {
  const protocol = (environment.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? environment.OTEL_EXPORTER_OTLP_PROTOCOL ?? "http/protobuf").trim();
  if (protocol === "http/protobuf" || protocol === "http/json") return protocol;
  throw new CliError(`OTEL_EXPORTER_OTLP_PROTOCOL=${protocol} is not supported by the toolexec CLI; use http/protobuf or http/json`);
}

async function importSdk() {
  try {
    const [traceNode, traceBase, sdkMetrics, resources, protoExporter, jsonExporter, metricsExporter] = await Promise.all([
      import("@opentelemetry/sdk-trace-node"),
      import("@opentelemetry/sdk-trace-base"),
      import("@opentelemetry/sdk-metrics"),
      import("@opentelemetry/resources"),
      import("@opentelemetry/exporter-trace-otlp-proto"),
      import("@opentelemetry/exporter-trace-otlp-http"),
      import("@opentelemetry/exporter-metrics-otlp-http"),
    ]);
    return { traceNode, traceBase, sdkMetrics, resources, protoExporter, jsonExporter, metricsExporter };
  } catch (error) {
    const missing = /Cannot find (?:package|module) '([^']+)'/.exec((error as Error)?.message ?? "")?.[1];
    throw new CliError(
      `OTEL_EXPORTER_OTLP_ENDPOINT is set, but the OpenTelemetry SDK is not installed${missing ? ` (${missing} is missing)` : ""}. Install it next to toolexec: npm install ${OTLP_SDK_PACKAGES.join(" ")}`,
    );
  }
}

/**
 * @example
 * const sdk = await startOtlpSdk(process.env);
 * sdk.registerTracing();
 * metrics.setGlobalMeterProvider(sdk.meterProvider);
 */
export async function startOtlpSdk(environment: NodeJS.ProcessEnv): Promise<OtlpSdk> {
  const protocol = protocolOf(environment);
  const sdk = await importSdk();
  const { defaultResource, detectResources, envDetector, resourceFromAttributes } = sdk.resources;
  // toolexec names itself unless OTEL_SERVICE_NAME or OTEL_RESOURCE_ATTRIBUTES say otherwise.
  const resource = defaultResource().merge(resourceFromAttributes({ "service.name": "toolexec" })).merge(detectResources({ detectors: [envDetector] }));
  const traceExporter = protocol === "http/json" ? new sdk.jsonExporter.OTLPTraceExporter() : new sdk.protoExporter.OTLPTraceExporter();
  const tracerProvider = new sdk.traceNode.NodeTracerProvider({ resource, spanProcessors: [new sdk.traceBase.BatchSpanProcessor(traceExporter)] });
  const interval = Number(environment.OTEL_METRIC_EXPORT_INTERVAL);
  const reader = new sdk.sdkMetrics.PeriodicExportingMetricReader({
    exporter: new sdk.metricsExporter.OTLPMetricExporter(),
    exportIntervalMillis: Number.isInteger(interval) && interval > 0 ? interval : DEFAULT_METRIC_EXPORT_INTERVAL_MS,
  });
  const meterProvider = new sdk.sdkMetrics.MeterProvider({ resource, readers: [reader] });
  return {
    meterProvider,
    registerTracing: () => tracerProvider.register(),
    async shutdown() {
      await Promise.allSettled([tracerProvider.shutdown(), meterProvider.shutdown()]);
    },
  };
}
