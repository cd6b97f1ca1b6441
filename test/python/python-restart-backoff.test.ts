/** Workers that crash or fail to start, again and again: the next starts wait (backoff) instead of hammering spawns. */
import { appendFileSync, chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { RESTART_BACKOFF } from "../../src/plugins/python/worker-pool.js";
import { childPids, pythonProject, startExecutor } from "./python-test-helpers.js";

function lines(file: string): number {
  return existsSync(file) ? readFileSync(file, "utf8").trim().split("\n").length : 0;
}

/** Waits out the backoff the refusal announced: the behaviour under test is a point in time. */
async function untilNextAttempt(details: unknown): Promise<void> {
  const { retryAfterMs } = details as { retryAfterMs: number };
  await new Promise((resolve) => setTimeout(resolve, retryAfterMs + 20));
}

const crashingTools = [
  { name: "crash", function: "crashing_tools.py:crash" },
  { name: "healthy", function: "crashing_tools.py:healthy" },
];

describe("python worker restarts", () => {
  it("after two crashes in a row, refuses the next start with SERVICE_UNAVAILABLE (last stderr line, next attempt) and spawns nothing; a healthy worker resets", async () => {
    const project = pythonProject(crashingTools);
    const executor = await startExecutor(project);
    const calls = project.path("calls");
    for (let crash = 1; crash <= 2; crash++) {
      const result = await executor.callTool("crash", { count_file: calls });
      expect(result).toMatchObject({ ok: false, error: { code: "TOOL_FAILED", message: expect.stringContaining("out of widgets") } });
    }
    const before = Date.now();
    const refused = await executor.callTool("healthy", {});
    if (refused.ok) throw new Error("expected SERVICE_UNAVAILABLE");
    expect(refused.error.code).toBe("SERVICE_UNAVAILABLE");
    expect(refused.error.message).toMatch(
      /^No Python worker for crashing_tools\.py:healthy: 2 worker failures in a row, the last: the worker exited with code 70: native library aborted: out of widgets\. The next worker starts in \d+ ms at the earliest \(\d{4}-\d\d-\d\dT[\d:.]+Z\)$/,
    );
    const details = refused.error.details as { nextAttemptAt: number; retryAfterMs: number; failures: number };
    expect(details.failures).toBe(2);
    expect(details.nextAttemptAt).toBeGreaterThan(before);
    expect(details.retryAfterMs).toBeLessThanOrEqual(RESTART_BACKOFF.minDelayMs);
    expect(childPids()).toEqual([]); // no worker was started for the refused call
    expect(lines(calls)).toBe(2);

    await untilNextAttempt(details);
    expect(await executor.callTool("healthy", {})).toMatchObject({ ok: true, value: "fine" });
    // Reset: one crash is tolerated again, the next call starts a worker at once.
    expect(await executor.callTool("crash", { count_file: calls })).toMatchObject({ ok: false, error: { code: "TOOL_FAILED" } });
    expect(await executor.callTool("healthy", {})).toMatchObject({ ok: true, value: "fine" });
  });

  it("reads a module edited during the backoff again once a worker may start, instead of leaving its tools out until the next edit", async () => {
    const project = pythonProject(crashingTools);
    const executor = await startExecutor(project);
    for (let crash = 1; crash <= 2; crash++) await executor.callTool("crash", { count_file: project.path("calls") });
    appendFileSync(project.path("tools/crashing_tools.py"), "\n# fixed, say\n");
    const during = await executor.callTool("healthy", {});
    expect(during).toMatchObject({ ok: false, error: { code: "SERVICE_UNAVAILABLE", message: expect.stringMatching(/^Python tool "healthy" is unavailable: Cannot read tools\/crashing_tools\.py: 2 worker failures in a row/) } });
    await new Promise((resolve) => setTimeout(resolve, RESTART_BACKOFF.minDelayMs + 20)); // the first wait is at most this long
    // Asked again, the module is read again (in the background: the tool joins the list when read).
    const joined = new Promise<void>((resolve) => executor.on("tools:changed", () => resolve()));
    const asked = await executor.callTool("healthy", {});
    if (!asked.ok) await joined;
    expect(await executor.callTool("healthy", {})).toMatchObject({ ok: true, value: "fine" });
  });

  it("counts failed starts too, and doubles the wait at each failure in a row", async () => {
    const project = pythonProject(crashingTools.map((tool) => ({ ...tool, interpreter: "./python-launcher" })));
    // An interpreter that starts python3 until told to fail, counting its starts.
    const launcher = project.path("python-launcher");
    writeFileSync(launcher, `#!/bin/sh\necho start >> "$TOOLEXEC_ROOT/starts"\nif [ -e "$TOOLEXEC_ROOT/broken" ]; then echo "launcher: python is broken here" >&2; exit 3; fi\nexec python3 "$@"\n`);
    chmodSync(launcher, 0o755);
    const executor = await startExecutor(project);
    const starts = project.path("starts");
    writeFileSync(project.path("broken"), "");
    expect(await executor.callTool("crash", { count_file: project.path("calls") })).toMatchObject({ ok: false, error: { code: "TOOL_FAILED" } });
    const failedStart = await executor.callTool("healthy", {});
    expect(failedStart).toMatchObject({ ok: false, error: { code: "TOOL_FAILED", message: expect.stringContaining("launcher: python is broken here") } });
    const startsBefore = lines(starts);
    const first = await executor.callTool("healthy", {});
    if (first.ok) throw new Error("expected SERVICE_UNAVAILABLE");
    expect(first.error.code).toBe("SERVICE_UNAVAILABLE");
    expect(first.error.message).toContain("the last: Python worker exited with code 3: launcher: python is broken here");
    expect(lines(starts)).toBe(startsBefore);

    await untilNextAttempt(first.error.details);
    expect(await executor.callTool("healthy", {})).toMatchObject({ ok: false, error: { code: "TOOL_FAILED" } });
    expect(lines(starts)).toBe(startsBefore + 1);
    const second = await executor.callTool("healthy", {});
    if (second.ok) throw new Error("expected SERVICE_UNAVAILABLE");
    expect(second.error.details).toMatchObject({ failures: 3 });
    // The second wait is drawn from twice the first one's range.
    expect((second.error.details as { retryAfterMs: number }).retryAfterMs).toBeGreaterThan(RESTART_BACKOFF.minDelayMs / 2 + 50);
  });
});
