// Small statistics helpers shared by the benchmarks.
import { performance } from "node:perf_hooks";

export const median = (values) => quantile(values, 0.5);

export function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  const index = (sorted.length - 1) * q;
  const low = Math.floor(index);
  const high = Math.ceil(index);
  return sorted[low] + (sorted[high] - sorted[low]) * (index - low);
}

export const format = (ms) => `${ms.toFixed(2)} ms`;

/** Parse `--runs N` style flags with defaults. */
export function flag(name, fallback) {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? Number(process.argv[index + 1]) : fallback;
}

/** Times of `count` awaited calls of `send(index)`, one after another, in ms. */
export async function roundTrips(send, count) {
  const times = [];
  for (let index = 0; index < count; index++) {
    const started = performance.now();
    await send(index);
    times.push(performance.now() - started);
  }
  return times;
}

export const mean = (values) => values.reduce((sum, value) => sum + value, 0) / values.length;

/** Parse `--tools 1000,10000` style flags (a comma-separated list of numbers) with defaults. */
export function listFlag(name, fallback) {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1].split(",").map(Number) : fallback;
}
