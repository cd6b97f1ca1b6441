/**
 * A code run's result of 250,000 keys (under a raised size cap): beyond parsing the `done` frame
 * that carries it, the host's work on the value (the result envelope, events, trace) stays within
 * 50 ms. The parse itself (100–150 ms on loaded cores) is the baseline here, and the execution log
 * is off: with it on, the log's snapshot, secret-key walk and preview each cost ~100 ms at this
 * size (issue 25 item 4, still open).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { measureStall } from "../helpers/event-loop-stall.js";
import { openCodeExecutor, type CodeSetup } from "./code-test-helpers.js";

const BOUND_MS = 50;
const KEYS = 250_000;

let setup: CodeSetup;
beforeAll(async () => {
  setup = await openCodeExecutor({ codeExecution: { enabled: true, poolSize: 1, timeoutMs: 60_000, maxResultBytes: 8 * 1024 * 1024 } });
}, 60_000);
afterAll(async () => setup?.close());

describe("a code result of 250,000 keys", () => {
  it("comes back whole, the host adding nothing that grows with it to the frame's parse", async () => {
    const code = `const wide = {}; for (let i = 0; i < ${KEYS}; i++) wide["k" + i] = i; return wide;`;
    const frame = JSON.stringify({ t: "done", x: 1, ok: true, value: Object.fromEntries(Array.from({ length: KEYS }, (_, index) => [`k${index}`, index])) });
    // What the host cannot avoid: parsing the frame that carries the value.
    const reference = () => void JSON.parse(frame);
    const stall = await measureStall(() => setup.executor.executeCode({ code }), { boundMs: BOUND_MS, attempts: 5, reference });
    expect(stall.value).toMatchObject({ ok: true });
    const value = stall.value.ok ? (stall.value.value as Record<string, number>) : {};
    expect(Object.keys(value)).toHaveLength(KEYS);
    expect(value.k249999).toBe(249_999);
    expect(stall.attributableMs).toBeLessThanOrEqual(BOUND_MS);
  }, 180_000);
});
