/**
 * A large record does not stall the host: the widest arguments code may pass (24,000 keys, under
 * the 25,000 limit) are logged as previews redacted and serialized
 * only as far as the preview goes, with every secret still hidden. Before, redacting the whole
 * record on the call path (10 patterns tested per key, a copy of every value) cost ~140 ms of CPU.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createExecutionLog } from "../../src/core/log/execution-log.js";
import { DEFAULT_REDACT_KEYS } from "../../src/core/log/redact.js";
import { measureStall } from "../helpers/event-loop-stall.js";
import { readLogRecords, readLogText, recordingLogger } from "./log-test-helpers.js";

const BOUND_MS = 50;
const MAX_VALUE_BYTES = 64 * 1024;

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** 24,000 keys; the last is a secret-looking key whose value the first key echoes, and an env secret sits in the middle. */
function wideArguments(): Record<string, unknown> {
  const wide: Record<string, unknown> = { echoed: "pw-hunter2-at-the-end" };
  for (let index = 0; index < 23_997; index++) wide[`field_name_${index}`] = index === 12 ? "env ENV-SECRET-VALUE here" : `value ${index}`;
  wide.password = "pw-hunter2-at-the-end";
  wide.nested = { api_key: 123456789 };
  return wide;
}

describe("execution log on large records", () => {
  it("logs a 24,000-key call without stalling the host, secrets hidden", async () => {
    dir = mkdtempSync(path.join(tmpdir(), "log-stall-"));
    const logDir = dir;
    const args = wideArguments();
    let writes = 0;
    const stall = await measureStall(
      async () => {
        const log = createExecutionLog({ dir: path.join(logDir, `run-${writes++}`), interval: "1d", maxFiles: 3, redactKeys: DEFAULT_REDACT_KEYS, maxValueBytes: MAX_VALUE_BYTES, logger: recordingLogger() });
        log.write({ executionId: "e1", tool: "echo", ok: true, arguments: args, value: { echoed: "pw-hunter2-at-the-end", rows: 24_000 } }, ["ENV-SECRET-VALUE"]);
        await log.close();
        return path.join(logDir, `run-${writes - 1}`);
      },
      { boundMs: BOUND_MS, attempts: 5 },
    );
    expect(stall.attributableMs).toBeLessThanOrEqual(BOUND_MS);
    const text = readLogText(stall.value);
    for (const secret of ["hunter2", "ENV-SECRET-VALUE", "123456789"]) expect(text).not.toContain(secret);
    const [record] = readLogRecords(stall.value);
    const preview = (record!.arguments as { preview: string }).preview;
    expect(record!.arguments).toMatchObject({ truncated: true, bytes: Buffer.byteLength(JSON.stringify(args)) });
    expect(Buffer.byteLength(preview)).toBe(MAX_VALUE_BYTES);
    expect(preview.startsWith('{"echoed":"[REDACTED]","field_name_0":"value 0"')).toBe(true);
    expect(preview).toContain('"field_name_12":"env [REDACTED] here"');
    // The answer repeats the secret argument: hidden there too.
    expect(record!.value).toEqual({ echoed: "[REDACTED]", rows: 24_000 });
  }, 120_000);
});
