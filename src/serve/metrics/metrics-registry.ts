/**
 * A small in-process metrics registry that is an OpenTelemetry `MeterProvider`: register it (alone,
 * or beside an SDK's with `fanOutMeterProviders`) and the executor's, the MCP plugin's and serve's
 * instruments record into it; `/metrics` renders it in Prometheus text (prometheus-text.ts). No SDK
 * needed. Counters, up-down counters, gauges and histograms (explicit buckets from the instrument's
 * advice), synchronous or observable; batch callbacks are not supported (toolexec uses none).
 */
import type { Attributes, BatchObservableCallback, Meter, MeterProvider, MetricOptions, ObservableCallback, ObservableResult } from "@opentelemetry/api";

export type InstrumentKind = "counter" | "updown" | "gauge" | "histogram";

/** One labelled series: a sum or last value, or a histogram's bucket counts (one per boundary, then +Inf), sum and count. */
export interface Series {
  attributes: Attributes;
  value: number;
  buckets?: number[];
  count?: number;
}

export interface InstrumentData {
  name: string;
  kind: InstrumentKind;
  description: string;
  unit: string;
  boundaries?: readonly number[];
  series: Series[];
}

export interface MetricsRegistry {
  /** Register it with `metrics.setGlobalMeterProvider` before `createExecutor`. */
  meterProvider: MeterProvider;
  /** Every instrument's series now (observable instruments are asked for their values first). */
  collect(): Promise<InstrumentData[]>;
}

/** Prometheus's default buckets (seconds), for a histogram whose instrument advises none. */
const DEFAULT_BOUNDARIES = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

interface Instrument {
  name: string;
  kind: InstrumentKind;
  options: MetricOptions;
  series: Map<string, Series>;
  callbacks?: Set<ObservableCallback>;
}

const seriesKey = (attributes: Attributes = {}) => JSON.stringify(Object.entries(attributes).sort(([a], [b]) => (a < b ? -1 : 1)));

function record(instrument: Instrument, value: number, attributes: Attributes = {}): void {
  const key = seriesKey(attributes);
  let series = instrument.series.get(key);
  if (!series) instrument.series.set(key, (series = { attributes: { ...attributes }, value: 0 }));
  if (instrument.kind === "gauge") series.value = value;
  else series.value += value;
  if (instrument.kind !== "histogram") return;
  const boundaries = boundariesOf(instrument);
  series.buckets ??= new Array<number>(boundaries.length + 1).fill(0);
  let index = 0;
  while (index < boundaries.length && value > boundaries[index]!) index++;
  series.buckets[index]! += 1;
  series.count = (series.count ?? 0) + 1;
}

const boundariesOf = (instrument: Instrument): readonly number[] => instrument.options.advice?.explicitBucketBoundaries ?? DEFAULT_BOUNDARIES;

async function observe(instrument: Instrument): Promise<Series[]> {
  const observed = new Map<string, Series>();
  const result: ObservableResult = { observe: (value, attributes = {}) => void observed.set(seriesKey(attributes), { attributes: { ...attributes }, value }) };
  for (const callback of instrument.callbacks ?? []) {
    try {
      await callback(result);
    } catch {
      // One failing callback must not take /metrics down; its series are simply missing.
    }
  }
  return [...observed.values()];
}

/**
 * @example
 * const registry = createMetricsRegistry();
 * metrics.setGlobalMeterProvider(registry.meterProvider);
 * const executor = await createExecutor({ root });
 * await serveHttp(executor, { metrics: registry });
 */
export function createMetricsRegistry(): MetricsRegistry {
  const instruments = new Map<string, Instrument>();
  const instrument = (name: string, kind: InstrumentKind, options: MetricOptions = {}, observable = false): Instrument => {
    let found = instruments.get(name);
    if (!found) instruments.set(name, (found = { name, kind, options, series: new Map(), ...(observable ? { callbacks: new Set() } : {}) }));
    return found;
  };
  const synchronous = (name: string, kind: InstrumentKind, options?: MetricOptions) => {
    const target = instrument(name, kind, options);
    const write = (value: number, attributes?: Attributes) => record(target, value, attributes);
    return { add: write, record: write };
  };
  const observable = (name: string, kind: InstrumentKind, options?: MetricOptions) => {
    const target = instrument(name, kind, options, true);
    return { addCallback: (callback: ObservableCallback) => void target.callbacks!.add(callback), removeCallback: (callback: ObservableCallback) => void target.callbacks!.delete(callback) };
  };
  const meter: Meter = {
    createCounter: (name, options) => synchronous(name, "counter", options),
    createUpDownCounter: (name, options) => synchronous(name, "updown", options),
    createGauge: (name, options) => synchronous(name, "gauge", options),
    createHistogram: (name, options) => synchronous(name, "histogram", options),
    createObservableCounter: (name, options) => observable(name, "counter", options),
    createObservableUpDownCounter: (name, options) => observable(name, "updown", options),
    createObservableGauge: (name, options) => observable(name, "gauge", options),
    addBatchObservableCallback: (_callback: BatchObservableCallback) => undefined,
    removeBatchObservableCallback: (_callback: BatchObservableCallback) => undefined,
  };
  return {
    // One namespace for every scope: toolexec's instrument names are unique across its scopes.
    meterProvider: { getMeter: () => meter },
    async collect() {
      const collected: InstrumentData[] = [];
      for (const entry of instruments.values()) {
        const series = entry.callbacks ? await observe(entry) : [...entry.series.values()];
        const data: InstrumentData = { name: entry.name, kind: entry.kind, description: entry.options.description ?? "", unit: entry.options.unit ?? "", series };
        if (entry.kind === "histogram") data.boundaries = boundariesOf(entry);
        collected.push(data);
      }
      return collected;
    },
  };
}
