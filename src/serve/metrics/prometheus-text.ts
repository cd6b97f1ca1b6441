/**
 * The registry's instruments in the Prometheus text exposition format (version 0.0.4), named as
 * OpenTelemetry's Prometheus compatibility rules say: characters outside `[a-zA-Z0-9_:]` become
 * `_`, the unit becomes a suffix (`s` → `_seconds`; annotations such as `{call}` are dropped),
 * counters end in `_total`, and histograms are `_bucket{le=…}` (cumulative), `_sum` and `_count`.
 */
import type { Attributes } from "@opentelemetry/api";
import type { InstrumentData, Series } from "./metrics-registry.js";

/** The `Content-Type` of the exposition. */
export const PROMETHEUS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

const UNIT_SUFFIXES: Record<string, string> = { s: "seconds", ms: "milliseconds", By: "bytes", "1": "ratio" };

const sanitize = (name: string) => name.replace(/[^a-zA-Z0-9_:]/g, "_").replace(/^([0-9])/, "_$1");

/** `mcp.client.operation.duration` in `s` → `mcp_client_operation_duration_seconds`; counter `toolexec.tool.calls` → `toolexec_tool_calls_total`. */
export function prometheusName(instrument: Pick<InstrumentData, "name" | "unit" | "kind">): string {
  let name = sanitize(instrument.name);
  const unit = instrument.unit.replace(/\{[^}]*\}/g, "");
  const suffix = UNIT_SUFFIXES[unit] ?? (unit === "" ? "" : sanitize(unit));
  if (suffix !== "" && !name.endsWith(`_${suffix}`)) name += `_${suffix}`;
  if (instrument.kind === "counter") name += "_total";
  return name;
}

const escapeLabel = (value: string) => value.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/"/g, '\\"');
const escapeHelp = (value: string) => value.replace(/\\/g, "\\\\").replace(/\n/g, "\\n");

function labels(attributes: Attributes, extra?: [string, string]): string {
  const pairs = Object.entries(attributes)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${sanitize(key)}="${escapeLabel(Array.isArray(value) ? value.join(",") : String(value))}"`);
  if (extra) pairs.push(`${extra[0]}="${extra[1]}"`);
  return pairs.length === 0 ? "" : `{${pairs.join(",")}}`;
}

const number = (value: number) => (Number.isFinite(value) ? String(value) : value > 0 ? "+Inf" : value < 0 ? "-Inf" : "NaN");

function histogramLines(name: string, boundaries: readonly number[], series: Series): string[] {
  const lines: string[] = [];
  let cumulative = 0;
  boundaries.forEach((boundary, index) => {
    cumulative += series.buckets?.[index] ?? 0;
    lines.push(`${name}_bucket${labels(series.attributes, ["le", number(boundary)])} ${cumulative}`);
  });
  lines.push(`${name}_bucket${labels(series.attributes, ["le", "+Inf"])} ${series.count ?? 0}`);
  lines.push(`${name}_sum${labels(series.attributes)} ${number(series.value)}`, `${name}_count${labels(series.attributes)} ${series.count ?? 0}`);
  return lines;
}

/**
 * @example
 * response.writeHead(200, { "content-type": PROMETHEUS_CONTENT_TYPE });
 * response.end(toPrometheusText(await registry.collect()));
 */
export function toPrometheusText(instruments: readonly InstrumentData[]): string {
  const lines: string[] = [];
  for (const instrument of instruments) {
    const name = prometheusName(instrument);
    const type = instrument.kind === "histogram" ? "histogram" : instrument.kind === "counter" ? "counter" : "gauge";
    if (instrument.description !== "") lines.push(`# HELP ${name} ${escapeHelp(instrument.description)}`);
    lines.push(`# TYPE ${name} ${type}`);
    for (const series of instrument.series) {
      if (instrument.kind === "histogram") lines.push(...histogramLines(name, instrument.boundaries ?? [], series));
      else lines.push(`${name}${labels(series.attributes)} ${number(series.value)}`);
    }
  }
  return lines.length === 0 ? "" : `${lines.join("\n")}\n`;
}
