/** Results that explain themselves: text before a script's JSON, and what a timed-out script last said. */
import { mkdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { readLogRecords } from "../log/log-test-helpers.js";
import { projectWith, startExecutor, toolEntry } from "./script-test-helpers.js";

describe("text before the JSON value", () => {
  it("returns the text as text, with a warning in the result and in the execution log", async () => {
    const project = projectWith([toolEntry("stray", "python", "print-then-json.py")], ["print-then-json.py"]);
    const logDir = project.path("logs");
    mkdirSync(logDir);
    const executor = await startExecutor(project, { logDir });
    const result = await executor.callTool("stray", {});
    expect(result).toMatchObject({ ok: true, value: 'loading data...\n{"sum": 3, "items": [{"a": 1}, {"b": 2}]}' });
    expect(result.ok && result.warnings).toMatchInlineSnapshot(`
      [
        "stdout had text before the JSON value; the result is returned as text (print debugging output to stderr)",
      ]
    `);
    await executor.close();
    const [record] = readLogRecords(logDir);
    expect(record).toMatchObject({ tool: "stray", ok: true, warnings: result.ok ? result.warnings : [] });
  });

  it("also finds a pretty-printed JSON value after the text", async () => {
    const project = projectWith([toolEntry("stray", "python", "print-then-json.py")], ["print-then-json.py"]);
    const executor = await startExecutor(project);
    const result = await executor.callTool("stray", { pretty: true });
    expect(result.ok && result.warnings).toHaveLength(1);
  });

  it("gives plain text and clean JSON no warnings", async () => {
    const project = projectWith([toolEntry("text", "python", "not-json.py"), toolEntry("echo", "python", "echo.py")], ["not-json.py", "echo.py"]);
    const executor = await startExecutor(project);
    const text = await executor.callTool("text", {});
    expect(text).toMatchObject({ ok: true, value: "this is not json" });
    expect(text).not.toHaveProperty("warnings");
    expect(await executor.callTool("echo", { a: 1 })).not.toHaveProperty("warnings");
  });

  it("says why in INVALID_OUTPUT when the tool declares an outputSchema", async () => {
    const project = projectWith([toolEntry("stray", "python", "print-then-json.py", { outputSchema: { type: "object" } })], ["print-then-json.py"]);
    const executor = await startExecutor(project);
    const result = await executor.callTool("stray", {});
    expect(result.ok ? undefined : result.error.message).toMatchInlineSnapshot(`"tools/print-then-json.py declares an outputSchema, so it must print JSON on stdout; it printed "loading data...\\n{\\"sum\\": 3, \\"items\\": [{\\"a\\": 1}, {\\"b\\": 2}]}" (text came before its JSON value: print debugging output to stderr)"`);
  });
});

describe("TIMEOUT of a script", () => {
  it("says how long the script had and its last stderr line, with both outputs' tails in details", async () => {
    const project = projectWith([toolEntry("stuck", "python", "stderr-then-hang.py", { timeoutMs: 700 }), toolEntry("echo", "python", "echo.py")], ["stderr-then-hang.py", "echo.py"]);
    const executor = await startExecutor(project);
    // Find the real interpreter first (pyenv shims are slow), so the budget goes to the script.
    await executor.callTool("echo", {});
    const result = await executor.callTool("stuck", {});
    if (result.ok) throw new Error("expected a TIMEOUT");
    expect(result.error.code).toBe("TIMEOUT");
    // The time the script had depends on when it started; everything else is pinned.
    expect(result.error.message.replace(/, \d+ ms after it started/, ", <ms> ms after it started")).toMatchInlineSnapshot(`"tools/stderr-then-hang.py was still running at the call's deadline, <ms> ms after it started; its process tree was killed. Last line of stderr: waiting for the lock on data.db"`);
    const had = Number(/, (\d+) ms after it started/.exec(result.error.message)?.[1]);
    // How much of the 700 ms is left after the spawn depends on the machine's load; it is never more.
    expect(had).toBeGreaterThan(0);
    expect(had).toBeLessThanOrEqual(700);
    expect(result.error.details).toMatchObject({
      timeoutMs: 700,
      stdout: '{"partial": tru\n',
      stderr: "starting\nwaiting for the lock on data.db\n",
      stdoutBytes: 16,
      stderrBytes: 41,
    });
  });
});
