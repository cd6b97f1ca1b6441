/**
 * A small, strict reader of the Prometheus text exposition format (0.0.4) for tests: every line must
 * be a HELP, a TYPE or a sample of the family its TYPE announced; histograms must have cumulative
 * buckets ending in +Inf equal to their count. Returns the samples.
 */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const NAME = "[a-zA-Z_:][a-zA-Z0-9_:]*";
const LABEL = `([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\\\\n]|\\\\[\\\\"n])*)"`;
const SAMPLE = new RegExp(`^(${NAME})(?:\\{((?:${LABEL})(?:,${LABEL})*)\\})? (\\S+)$`);

function parseValue(text: string): number {
  if (text === "+Inf") return Infinity;
  if (text === "-Inf") return -Infinity;
  if (text === "NaN") return NaN;
  const value = Number(text);
  if (text.trim() === "" || Number.isNaN(value)) throw new Error(`Not a sample value: ${JSON.stringify(text)}`);
  return value;
}

function parseLabels(text: string | undefined): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const match of (text ?? "").matchAll(new RegExp(LABEL, "g"))) labels[match[1]!] = match[2]!.replace(/\\n/g, "\n").replace(/\\"/g, '"').replace(/\\\\/g, "\\");
  return labels;
}

const familyOf = (name: string, types: Map<string, string>) => {
  for (const suffix of ["_bucket", "_sum", "_count", ""]) {
    const base = suffix && name.endsWith(suffix) ? name.slice(0, -suffix.length) : name;
    if (types.get(base) === "histogram" || (suffix === "" && types.has(base))) return base;
  }
  return undefined;
};

function checkHistograms(samples: Sample[], types: Map<string, string>): void {
  for (const [family, type] of types) {
    if (type !== "histogram") continue;
    const bySeries = new Map<string, Sample[]>();
    for (const sample of samples.filter((candidate) => candidate.name === `${family}_bucket`)) {
      const { le, ...rest } = sample.labels;
      const key = JSON.stringify(rest);
      bySeries.set(key, [...(bySeries.get(key) ?? []), { ...sample, labels: { le: le! } }]);
    }
    for (const [key, buckets] of bySeries) {
      const counts = buckets.map((bucket) => bucket.value);
      if (counts.some((count, index) => index > 0 && count < counts[index - 1]!)) throw new Error(`${family}${key}: buckets are not cumulative`);
      if (buckets.at(-1)?.labels.le !== "+Inf") throw new Error(`${family}${key}: the last bucket is not +Inf`);
      const count = samples.find((sample) => sample.name === `${family}_count` && JSON.stringify(sample.labels) === key);
      if (count?.value !== counts.at(-1)) throw new Error(`${family}${key}: _count ${count?.value} is not the +Inf bucket ${counts.at(-1)}`);
    }
  }
}

export function parsePrometheusText(text: string): Sample[] {
  if (text !== "" && !text.endsWith("\n")) throw new Error("The exposition must end with a newline");
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.split("\n").slice(0, -1)) {
    const typed = new RegExp(`^# TYPE (${NAME}) (counter|gauge|histogram|summary|untyped)$`).exec(line);
    if (typed) {
      if (types.has(typed[1]!)) throw new Error(`TYPE given twice for ${typed[1]}`);
      types.set(typed[1]!, typed[2]!);
      continue;
    }
    if (new RegExp(`^# HELP ${NAME} `).test(line)) continue;
    const sample = SAMPLE.exec(line);
    if (!sample) throw new Error(`Not a valid exposition line: ${JSON.stringify(line)}`);
    if (!familyOf(sample[1]!, types)) throw new Error(`Sample ${sample[1]} comes before its TYPE line`);
    samples.push({ name: sample[1]!, labels: parseLabels(sample[2]), value: parseValue(sample.at(-1)!) });
  }
  checkHistograms(samples, types);
  return samples;
}
