/**
 * Turns an execution record into its log line in two steps: `hold` on the call path takes a JSON
 * snapshot (what the caller changes afterwards cannot reach the log), and `line`, later and off the
 * path, redacts, bounds and serializes it. A large record's arguments and value are held as their
 * JSON texts (taken from what the host already holds when it can, see json-text.ts) and redacted
 * from that text in the flush, a slice at a time (`lineSteps`). A record the snapshot cannot take
 * whole (a cycle, a bigint, a throwing getter) is turned into its line at once instead.
 */
import { boundRecord, BOUNDED_FIELDS, previewOf } from "./bound-record.js";
import { jsonTextOf } from "./json-text.js";
import { runNow } from "./redact-json-text.js";
import { createRedactor, type Redactor } from "./redact.js";

/**
 * Records whose snapshot is longer than this (in characters) are held as a large snapshot: their
 * arguments and value are redacted from their JSON text, only as far as their preview goes.
 */
export const LARGE_RECORD_CHARS = 64 * 1024;

/** A large record as it waits: the JSON texts of its bounded fields, the other fields as one JSON object, its key order. */
interface LargeSnapshot {
  keys: string[];
  fields: Map<string, string>;
  rest: string;
}

/** A record as it waits for the disk: its JSON snapshot and the secrets of its call, a large snapshot, or its finished line. */
export type HeldRecord = { snapshot: string; secrets: readonly string[] } | { large: LargeSnapshot; secrets: readonly string[] } | { line: string };

export interface RecordSerializer {
  /** Snapshot `record` now; `secrets` are strings to hide wherever they appear in its payload. Never throws. */
  hold(record: Record<string, unknown>, secrets: readonly string[]): HeldRecord;
  /** The log line (without its newline) of a held record, at once. Never throws. */
  line(held: HeldRecord): string;
  /** The same line as steps to run in slices (`runSliced`): a large record's work pauses between them. Never throws. */
  lineSteps(held: HeldRecord): Generator<void, string>;
  /** Characters a held record keeps in memory, for the queue's bound. */
  size(held: HeldRecord): number;
}

/**
 * Fields the executor writes itself (ids, names, timings), never tool output: they are logged as
 * they are, so a short env value such as "100" cannot garble an execution id or a duration.
 */
const METADATA_FIELDS = new Set(["time", "executionId", "parentExecutionId", "tool", "plugin", "ok", "durationMs", "queueMs", "timeoutMs"]);

/**
 * `record` with its payload (arguments, value, error, anything not metadata) redacted: known secrets,
 * and the values of the record's own secret-looking keys wherever else they appear in it.
 */
function redactPayload(record: Record<string, unknown>, redactor: Redactor, secrets: readonly string[]): Record<string, unknown> {
  const echoed = redactor.secretValues(record);
  const redact = redactor.prepare(echoed.length === 0 ? secrets : [...secrets, ...echoed]);
  const redacted: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) redacted[key] = METADATA_FIELDS.has(key) ? value : redact(value);
  return redacted;
}

/** The large snapshot of `record`, whose bounded fields' JSON texts are `fields`. Throws what serializing throws. */
function largeSnapshot(record: Record<string, unknown>, fields: Map<string, string>): LargeSnapshot {
  const rest: Record<string, unknown> = {};
  for (const key of Object.keys(record)) if (!fields.has(key)) rest[key] = record[key];
  return { keys: Object.keys(record), fields, rest: JSON.stringify(rest) };
}

/**
 * The JSON of one bounded field given as its JSON `text`: redacted whole when it is within
 * `maxBytes`, else a preview redacted and serialized only as far as it goes, `bytes` being its size
 * before redaction. A string is bounded as text, as `boundRecord` does.
 */
function* boundedText(text: string, redactor: Redactor, hidden: readonly string[], maxBytes: number): Generator<void, string> {
  if (text.startsWith('"')) return JSON.stringify(boundRecord({ value: redactor.redact(JSON.parse(text), hidden) }, maxBytes).value);
  const bytes = Buffer.byteLength(text);
  if (bytes <= maxBytes) return yield* redactor.redactedText(text, hidden, Infinity);
  const prefix = yield* redactor.redactedText(text, hidden, maxBytes);
  return JSON.stringify({ truncated: true, bytes, preview: previewOf(Buffer.from(prefix), maxBytes) });
}

/**
 * The line of a large record: the secrets echoed anywhere in it are collected over all of it
 * first, then each field is redacted and bounded, its arguments and value from their texts.
 */
function* largeLine(snapshot: LargeSnapshot, redactor: Redactor, secrets: readonly string[], maxBytes: number): Generator<void, string> {
  const rest = JSON.parse(snapshot.rest) as Record<string, unknown>;
  const found = new Set(redactor.secretValues(rest));
  for (const text of snapshot.fields.values()) yield* redactor.secretValuesInText(text, found);
  const hidden = found.size === 0 ? secrets : [...secrets, ...found];
  const redact = redactor.prepare(hidden);
  const bounded = (value: unknown): unknown => {
    const json = JSON.stringify(value) as string | undefined;
    if (json === undefined || value === null || typeof value !== "object") return boundRecord({ value: redact(value) }, maxBytes).value;
    const bytes = Buffer.byteLength(json);
    return bytes <= maxBytes ? redact(value) : { truncated: true, bytes, preview: previewOf(Buffer.from(redactor.redactedPrefix(value, hidden, maxBytes)), maxBytes) };
  };
  const parts: string[] = [];
  for (const key of snapshot.keys) {
    const text = snapshot.fields.get(key);
    const value = rest[key];
    let json: string | undefined;
    if (text !== undefined) json = yield* boundedText(text, redactor, hidden, maxBytes);
    else if (METADATA_FIELDS.has(key)) json = JSON.stringify(value);
    else if (key === "error" && value !== null && typeof value === "object" && "details" in value) {
      const { details, ...others } = value as Record<string, unknown>;
      json = JSON.stringify({ ...(redact(others) as object), details: bounded(details) });
    } else json = JSON.stringify(redact(value));
    if (json !== undefined) parts.push(`${JSON.stringify(key)}:${json}`);
  }
  return `{${parts.join(",")}}`;
}

/** The ids and outcome of a record whose full form could not be serialized (e.g. a throwing getter). */
function fallbackRecord(record: Record<string, unknown>, error: unknown): Record<string, unknown> {
  const kept = Object.entries(record).filter(([, value]) => value === null || ["string", "number", "boolean"].includes(typeof value));
  return { ...Object.fromEntries(kept), logError: `This record could not be serialized: ${(error as Error)?.message ?? String(error)}` };
}

export function createRecordSerializer(options: { redactKeys: readonly RegExp[]; maxValueBytes: number }): RecordSerializer {
  const redactor = createRedactor(options.redactKeys);
  const serialize = (record: Record<string, unknown>, secrets: readonly string[]): string => {
    try {
      // Redacted before it is bounded, so a preview is cut from text that holds no secret.
      return JSON.stringify(boundRecord(redactPayload(record, redactor, secrets), options.maxValueBytes));
    } catch (error) {
      try {
        return JSON.stringify(redactPayload(fallbackRecord(record, error), redactor, secrets));
      } catch (fallbackError) {
        // Reading even the plain fields threw (a Proxy whose every trap throws): the line says so.
        return JSON.stringify({ logError: `This record could not be serialized: ${(fallbackError as Error)?.message ?? String(fallbackError)}` });
      }
    }
  };
  function* lineSteps(held: HeldRecord): Generator<void, string> {
    if ("line" in held) return held.line;
    if ("large" in held) {
      try {
        return yield* largeLine(held.large, redactor, held.secrets, options.maxValueBytes);
      } catch (error) {
        return JSON.stringify({ logError: `This record could not be serialized: ${(error as Error)?.message ?? String(error)}` });
      }
    }
    const record = JSON.parse(held.snapshot) as Record<string, unknown>;
    // Nothing to hide and nothing to cut (no field can be larger than the whole): the snapshot is
    // already the line that redacting, bounding and serializing the copy would give.
    if (Buffer.byteLength(held.snapshot) <= options.maxValueBytes && !redactor.mayRedact(record, held.snapshot, held.secrets)) return held.snapshot;
    return serialize(record, held.secrets);
  }
  return {
    hold(record, secrets) {
      try {
        // A large argument or value is told by its own JSON, which its snapshot then is.
        const fields = new Map<string, string>();
        let fieldChars = 0;
        for (const key of BOUNDED_FIELDS) {
          const value = record[key];
          if (value === null || (typeof value !== "object" && typeof value !== "string")) continue;
          const json = jsonTextOf(value, key) ?? (JSON.stringify(value) as string | undefined);
          if (json === undefined) continue;
          fields.set(key, json);
          fieldChars += json.length;
        }
        if (fieldChars > LARGE_RECORD_CHARS) return { large: largeSnapshot(record, fields), secrets };
        // The cheapest deep copy V8 has: native, and it already runs toJSON as the line will.
        const snapshot = JSON.stringify(record);
        return snapshot.length > LARGE_RECORD_CHARS ? { large: largeSnapshot(record, fields), secrets } : { snapshot, secrets };
      } catch {
        return { line: serialize(record, secrets) };
      }
    },
    line: (held) => runNow(lineSteps(held)),
    lineSteps,
    size: (held) => ("line" in held ? held.line.length : "snapshot" in held ? held.snapshot.length : held.large.rest.length + [...held.large.fields.values()].reduce((sum, text) => sum + text.length, 0)),
  };
}
