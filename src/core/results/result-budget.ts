/**
 * The result budget: how much of a call's value reaches a model. Past it the model gets the head of
 * the value and a line naming a handle that `read_result` pages through. Named defaults, one place.
 */

/** Characters of a value a model gets when nothing sets a budget. */
export const DEFAULT_RESULT_MAX_CHARS = 25_000;
/** Bytes the result store keeps across all handles before it evicts the least recently used. */
export const DEFAULT_RESULT_STORE_MAX_BYTES = 64 * 1024 * 1024;
/** How long a handle stays readable after its result was stored or last read. */
export const DEFAULT_RESULT_TTL_MS = 60 * 60_000;

/** One place where a bounded value left something out. */
export interface OmittedPart {
  /** JSON path of the place, e.g. `$.rows`; `$` is the value itself. */
  path: string;
  /** What was counted: array items, object keys, or characters (a string, a blob's data). */
  unit: "items" | "keys" | "characters";
  /** How many were left out, of how many. */
  left: number;
  of: number;
}

/**
 * What a bounded call (`callTool(name, args, { bounded: true })`, the LLM adapters, `serve`) adds to
 * a result whose value was over its budget; `value` is then the cut value.
 */
export interface TruncatedResult {
  /** `read_result`'s handle for the whole value; absent when the value was larger than the whole store. */
  handle?: string;
  /** What a model reads: the head of the value (text, or JSON cut on structure) and a last line naming the handle. */
  text: string;
  /** Size of the whole value in characters (UTF-16 code units): the string, or its JSON. */
  totalChars: number;
  /** The budget the value was cut to. */
  maxChars: number;
  /** The places where something was left out, in document order. */
  omitted: OmittedPart[];
}

/** The budget settings of `createExecutor` (`results`) and of tools.json's `defaults.results`. */
export interface ResultsOptions {
  /** Characters of a value a model gets (default 25,000). A tool's or server's own `results.maxChars` wins. */
  maxChars?: number;
  /** The in-memory store behind `read_result`. */
  store?: { maxBytes?: number; ttlMs?: number };
}

/** A number as people read it: `4,975,000`. */
export function formatCount(count: number): string {
  return count.toLocaleString("en-US");
}
