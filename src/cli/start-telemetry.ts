/**
 * The CLI's telemetry, set up before a command creates its executor: the OpenTelemetry SDK when
 * `OTEL_EXPORTER_OTLP_ENDPOINT` is set (otlp-sdk.ts; `OTEL_SDK_DISABLED=true` turns it off), and
 * for `serve --http` the in-process registry `/metrics` renders. Both meter providers are registered
 * as one (fan-out) global provider, so each instrument records into both.
 */
import type { MeterProvider } from "@opentelemetry/api";
import type { MetricsRegistry } from "../serve.js";
import type { Output } from "./command-context.js";

export interface CliTelemetry {
  /** The registry for `/metrics`, when the command serves over HTTP. */
  metrics?: MetricsRegistry;
  /** Export what is pending and unregister: called when the command ends. */
  shutdown(): Promise<void>;
}

const NOTHING: CliTelemetry = { shutdown: async () => {} };

/**
 * @example
 * const telemetry = await startCliTelemetry({ serving: values.http === true }, process.env, output);
 * try { await run(); } finally { await telemetry.shutdown(); }
 */
export async function startCliTelemetry(options: { serving: boolean }, environment: NodeJS.ProcessEnv, output: Output): Promise<CliTelemetry> {
  const exporting = (environment.OTEL_EXPORTER_OTLP_ENDPOINT ?? "") !== "" && environment.OTEL_SDK_DISABLED?.toLowerCase() !== "true";
  if (!exporting && !options.serving) return NOTHING;
  // Loaded here, not at the top: a command that neither exports nor serves over HTTP never needs the API.
  const { context, metrics, propagation, trace } = await import("@opentelemetry/api");
  const providers: MeterProvider[] = [];
  let registry: MetricsRegistry | undefined;
  if (options.serving) {
    const { createMetricsRegistry } = await import("../serve.js");
    registry = createMetricsRegistry();
    providers.push(registry.meterProvider);
  }
  let sdk: Awaited<ReturnType<typeof import("./otlp-sdk.js").startOtlpSdk>> | undefined;
  if (exporting) {
    const { startOtlpSdk } = await import("./otlp-sdk.js");
    try {
      sdk = await startOtlpSdk(environment);
      sdk.registerTracing();
      providers.push(sdk.meterProvider);
    } catch (error) {
      // Telemetry is never a reason not to run the command: say what is wrong and go on without it.
      output.err(`warning: ${(error as Error).message}`);
    }
  }
  if (providers.length > 0) {
    const { fanOutMeterProviders } = await import("../serve.js");
    metrics.setGlobalMeterProvider(providers.length === 1 ? providers[0]! : fanOutMeterProviders(providers));
  }
  return {
    ...(registry ? { metrics: registry } : {}),
    async shutdown() {
      await sdk?.shutdown();
      metrics.disable();
      if (sdk) {
        trace.disable();
        context.disable();
        propagation.disable();
      }
    },
  };
}
