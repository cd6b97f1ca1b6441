/** Execution ids (execution-id.ts) are random version-4 UUIDs, as `crypto.randomUUID()` makes them: the form logs and results carry. */
import { describe, expect, it } from "vitest";
import { newExecutionId } from "../../src/core/executor/execution-id.js";

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("newExecutionId", () => {
  it("makes version-4 UUIDs, unique across several draws of random bytes", () => {
    const ids = Array.from({ length: 2_000 }, () => newExecutionId());
    for (const id of ids) expect(id).toMatch(UUID_V4);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("draws every hex digit in every free position", () => {
    const ids = Array.from({ length: 2_000 }, () => newExecutionId());
    // A digit missing from one free position over 2,000 ids has a chance of (15/16)^2000, about 1e-56.
    for (const position of [0, 7, 9, 15, 16, 21, 24, 35]) expect(new Set(ids.map((id) => id[position])).size).toBe(16);
    // The variant position takes exactly 8, 9, a, b.
    expect([...new Set(ids.map((id) => id[19]))].sort()).toEqual(["8", "9", "a", "b"]);
  });
});
