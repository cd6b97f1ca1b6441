/**
 * One `MeterProvider` that records into several: the CLI's in-process registry (for `/metrics`) and
 * the OpenTelemetry SDK's (exported over OTLP) when both are on. Each instrument is made in every
 * provider; a measurement goes to each; an observable's callback is registered with each.
 */
import type { Attributes, Meter, MeterProvider, MetricOptions, ObservableCallback } from "@opentelemetry/api";

type Synchronous = { add?(value: number, attributes?: Attributes): void; record?(value: number, attributes?: Attributes): void };
type ObservableLike = { addCallback(callback: ObservableCallback): void; removeCallback(callback: ObservableCallback): void };

function fanOutMeter(meters: Meter[]): Meter {
  const synchronous = (make: (meter: Meter) => Synchronous) => {
    const all = meters.map(make);
    return {
      add: (value: number, attributes?: Attributes) => all.forEach((instrument) => instrument.add?.(value, attributes)),
      record: (value: number, attributes?: Attributes) => all.forEach((instrument) => instrument.record?.(value, attributes)),
    };
  };
  const observable = (make: (meter: Meter) => ObservableLike) => {
    const all = meters.map(make);
    return {
      addCallback: (callback: ObservableCallback) => all.forEach((instrument) => instrument.addCallback(callback)),
      removeCallback: (callback: ObservableCallback) => all.forEach((instrument) => instrument.removeCallback(callback)),
    };
  };
  return {
    createCounter: (name: string, options?: MetricOptions) => synchronous((meter) => meter.createCounter(name, options)),
    createUpDownCounter: (name: string, options?: MetricOptions) => synchronous((meter) => meter.createUpDownCounter(name, options)),
    createGauge: (name: string, options?: MetricOptions) => synchronous((meter) => meter.createGauge(name, options)),
    createHistogram: (name: string, options?: MetricOptions) => synchronous((meter) => meter.createHistogram(name, options)),
    createObservableCounter: (name: string, options?: MetricOptions) => observable((meter) => meter.createObservableCounter(name, options)),
    createObservableUpDownCounter: (name: string, options?: MetricOptions) => observable((meter) => meter.createObservableUpDownCounter(name, options)),
    createObservableGauge: (name: string, options?: MetricOptions) => observable((meter) => meter.createObservableGauge(name, options)),
    addBatchObservableCallback: (callback, observables) => meters.forEach((meter) => meter.addBatchObservableCallback(callback, observables)),
    removeBatchObservableCallback: (callback, observables) => meters.forEach((meter) => meter.removeBatchObservableCallback(callback, observables)),
  };
}

/**
 * @example
 * metrics.setGlobalMeterProvider(fanOutMeterProviders([registry.meterProvider, sdkMeterProvider]));
 */
export function fanOutMeterProviders(providers: MeterProvider[]): MeterProvider {
  return { getMeter: (name, version, options) => fanOutMeter(providers.map((provider) => provider.getMeter(name, version, options))) };
}
