/**
 * Turns an execution record into its log line in two steps: `hold` on the call path takes a JSON
 * snapshot (what the caller changes afterwards cannot reach the log), and `line`, later and off the
 * path, redacts, bounds and serializes it. A record the snapshot cannot take whole (a cycle, a
 * bigint, a throwing getter) or a large one is turned into its line at once instead.
 */
import { boundRecord } from "./bound-record.js";
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
  return {
    hold(record, secrets) {
      let snapshot: string;
      try {
        // The cheapest deep copy V8 has: native, and it already runs toJSON as the line will.
        snapshot = JSON.stringify(record);
      } catch {
        return { line: serialize(record, secrets) };
      }
      return snapshot.length > LARGE_RECORD_CHARS ? { line: serialize(record, secrets) } : { snapshot, secrets };
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
