/**
 * Turns an execution record into its log line in two steps: `hold` on the call path takes a JSON
 * snapshot (what the caller changes afterwards cannot reach the log), and `line`, later and off the
 * path, redacts, bounds and serializes it. A record the snapshot cannot take whole (a cycle, a
 * bigint, a throwing getter) or a large one is turned into its line at once instead.
 */
import { boundRecord, BOUNDED_FIELDS, previewOf } from "./bound-record.js";
import { createRedactor, type Redactor } from "./redact.js";

/**
 * Records whose snapshot is longer than this (in characters) are redacted and bounded at once, so
 * that what waits for the disk is at most a few bounded values per record, not a tool's 50 MB answer.
 */
export const LARGE_RECORD_CHARS = 64 * 1024;

/** A record as it waits for the disk: its JSON snapshot and the secrets of its call, or its finished line. */
export type HeldRecord = { snapshot: string; secrets: readonly string[] } | { line: string };

export interface RecordSerializer {
  /** Snapshot `record` now; `secrets` are strings to hide wherever they appear in its payload. Never throws. */
  hold(record: Record<string, unknown>, secrets: readonly string[]): HeldRecord;
  /** The log line (without its newline) of a held record. Never throws. */
  line(held: HeldRecord): string;
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

/**
 * The line of a large record, redacted and bounded together: a value over `maxBytes` is redacted
 * and serialized only as far as its preview goes, so a 250,000-key answer costs the host its
 * preview, not a redacted copy of all of it. `bytes` is then the value's JSON size before redaction.
 * Throws what serializing throws (a bigint, a throwing getter), for the caller's fallback.
 */
function serializeLarge(record: Record<string, unknown>, redactor: Redactor, secrets: readonly string[], maxBytes: number, known = new Map<unknown, string | undefined>()): string {
  const echoed = redactor.secretValues(record);
  const hidden = echoed.length === 0 ? secrets : [...secrets, ...echoed];
  const redact = redactor.prepare(hidden);
  const bounded = (value: unknown): unknown => {
    if (value === null || typeof value !== "object") return boundRecord({ value: redact(value) }, maxBytes).value;
    const json = known.has(value) ? known.get(value) : (JSON.stringify(value) as string | undefined);
    const bytes = json === undefined ? 0 : Buffer.byteLength(json);
    return bytes <= maxBytes ? redact(value) : { truncated: true, bytes, preview: previewOf(Buffer.from(redactor.redactedPrefix(value, hidden, maxBytes)), maxBytes) };
  };
  const line: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) {
    if (METADATA_FIELDS.has(key)) line[key] = value;
    else if (BOUNDED_FIELDS.includes(key)) line[key] = bounded(value);
    else if (key === "error" && value !== null && typeof value === "object" && "details" in value) {
      const { details, ...rest } = value as Record<string, unknown>;
      line[key] = { ...(redact(rest) as object), details: bounded(details) };
    } else line[key] = redact(value);
  }
  return JSON.stringify(line);
}

/** The ids and outcome of a record whose full form could not be serialized (e.g. a throwing getter). */
function fallbackRecord(record: Record<string, unknown>, error: unknown): Record<string, unknown> {
  const kept = Object.entries(record).filter(([, value]) => value === null || ["string", "number", "boolean"].includes(typeof value));
  return { ...Object.fromEntries(kept), logError: `This record could not be serialized: ${(error as Error)?.message ?? String(error)}` };
}

export function createRecordSerializer(options: { redactKeys: readonly RegExp[]; maxValueBytes: number }): RecordSerializer {
  const redactor = createRedactor(options.redactKeys);
  const serialize = (record: Record<string, unknown>, secrets: readonly string[], large?: Map<unknown, string | undefined>): string => {
    try {
      if (large) return serializeLarge(record, redactor, secrets, options.maxValueBytes, large);
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
  return {
    hold(record, secrets) {
      let snapshot: string;
      const fields = new Map<unknown, string | undefined>();
      try {
        // A large argument or value is told by its own JSON, which its preview's size then reuses.
        let fieldChars = 0;
        for (const key of BOUNDED_FIELDS) {
          const value = record[key];
          if (value === null || typeof value !== "object") continue;
          const json = JSON.stringify(value) as string | undefined;
          fields.set(value, json);
          fieldChars += json?.length ?? 0;
        }
        if (fieldChars > LARGE_RECORD_CHARS) return { line: serialize(record, secrets, fields) };
        // The cheapest deep copy V8 has: native, and it already runs toJSON as the line will.
        snapshot = JSON.stringify(record);
      } catch {
        return { line: serialize(record, secrets) };
      }
      return snapshot.length > LARGE_RECORD_CHARS ? { line: serialize(record, secrets, fields) } : { snapshot, secrets };
    },
    line(held) {
      if ("line" in held) return held.line;
      const record = JSON.parse(held.snapshot) as Record<string, unknown>;
      // Nothing to hide and nothing to cut (no field can be larger than the whole): the snapshot is
      // already the line that redacting, bounding and serializing the copy would give.
      if (Buffer.byteLength(held.snapshot) <= options.maxValueBytes && !redactor.mayRedact(record, held.snapshot, held.secrets)) return held.snapshot;
      return serialize(record, held.secrets);
    },
    size: (held) => ("line" in held ? held.line.length : held.snapshot.length),
  };
}
