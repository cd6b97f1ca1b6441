/** Script tools that fail: exit codes, signals, bad output, missing scripts, invalid arguments. */
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createMemoryLogger, projectWith, stable, startExecutor, toolEntry } from "./script-test-helpers.js";

describe("script tools: TOOL_FAILED", () => {
  it("reports a non-zero exit with the last stderr line in the message and the stderr tail in details", async () => {
    const project = projectWith([toolEntry("exit_2", "python", "exit-2.py")], ["exit-2.py"]);
    const executor = await startExecutor(project);

    const result = await executor.callTool("exit_2", {});

    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("TOOL_FAILED");
    expect(result.error.message).toMatchInlineSnapshot(`"tools/exit-2.py exited with code 2: ValueError: bad row 7"`);
    expect(result.error.details).toEqual({
      exitCode: 2,
      signal: null,
      stderr: "reading rows\nValueError: bad row 7\n",
      stdout: "partial result\n",
    });
  });

  it("reports a non-zero exit with nothing on stderr", async () => {
    const project = projectWith([toolEntry("exit_3", "shell", "exit-3-silent.sh")], ["exit-3-silent.sh"]);
    const executor = await startExecutor(project);

    const result = await executor.callTool("exit_3", {});

    expect(result.ok || result.error.message).toMatchInlineSnapshot(`"tools/exit-3-silent.sh exited with code 3"`);
    expect(result.ok || result.error.details).toEqual({ exitCode: 3, signal: null, stderr: "", stdout: "" });
  });

  it("keeps only the tail of a long stderr", async () => {
    const project = projectWith([toolEntry("noisy", "python", "noisy-then-fail.py")], []);
    project.write(
      "tools/noisy-then-fail.py",
      'import sys\nfor i in range(5000): sys.stderr.write(f"line {i}\\n")\nsys.stderr.write("the real reason\\n")\nsys.exit(1)\n',
    );
    const executor = await startExecutor(project);

    const result = await executor.callTool("noisy", {});

    expect(result.ok).toBe(false);
    if (result.ok) return;
    const stderr = result.error.details?.stderr as string;
    expect(result.error.message).toBe("tools/noisy-then-fail.py exited with code 1: the real reason");
    expect(stderr.endsWith("line 4999\nthe real reason\n")).toBe(true);
    expect(stderr).not.toContain("line 0\n");
    expect(Buffer.byteLength(stderr)).toBeLessThanOrEqual(8 * 1024);
    expect(Buffer.byteLength(stderr)).toBeGreaterThan(7 * 1024);
  });

  it("reports a script killed by a signal", async () => {
    const project = projectWith([toolEntry("kill_self", "python", "kill-self.py")], ["kill-self.py"]);
    const executor = await startExecutor(project);

    const result = await executor.callTool("kill_self", {});

    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("TOOL_FAILED");
    expect(result.error.message).toMatchInlineSnapshot(`"tools/kill-self.py was killed by SIGTERM: about to be terminated"`);
    expect(result.error.details).toMatchObject({ exitCode: null, signal: "SIGTERM" });
  });

  it("reports a python interpreter that does not exist, naming it and what to do", async () => {
    const project = projectWith([toolEntry("echo", "python", "echo.py", { interpreter: ".venv/bin/python" })], ["echo.py"]);
    const executor = await startExecutor(project);

    const result = await executor.callTool("echo", {});

    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("TOOL_FAILED");
    expect(stable(result.error.message, project)).toMatchInlineSnapshot(
      `"Python interpreter "<root>/.venv/bin/python" could not be started (not found); install Python or set "interpreter" / defaults.python in tools.json"`,
    );
  });
});

describe("script tools: TOOL_FAILED before the start", () => {
  it("names a working directory that does not exist", async () => {
    const project = projectWith([toolEntry("echo", "shell", "echo.sh", { cwd: "data/missing" })], ["echo.sh"]);
    const executor = await startExecutor(project);

    const result = await executor.callTool("echo", {});

    expect(result.ok || result.error).toMatchObject({ code: "TOOL_FAILED", details: { cwd: "data/missing" } });
    expect(result.ok || result.error.message).toMatchInlineSnapshot(
      `"Working directory "data/missing" of tool "echo" does not exist; create it or fix "cwd" in tools.json"`,
    );
  });

  it("says which command could not be found", async () => {
    const project = projectWith([toolEntry("echo", "shell", "echo.sh", { env: { PATH: "/nonexistent" } })], ["echo.sh"]);
    const executor = await startExecutor(project);

    const result = await executor.callTool("echo", {});

    expect(result.ok || result.error).toMatchObject({ code: "TOOL_FAILED", details: { command: "bash" } });
    expect(result.ok || result.error.message).toMatchInlineSnapshot(`"Could not start tools/echo.sh: "bash" was not found on the script's PATH"`);
  });
});

describe("script tools: INVALID_OUTPUT", () => {
  const outputSchema = { type: "object", properties: { count: { type: "integer" } }, required: ["count"] };

  it("rejects stdout that is not JSON when the tool declares an outputSchema", async () => {
    const project = projectWith([toolEntry("not_json", "python", "not-json.py", { outputSchema })], ["not-json.py"]);
    const executor = await startExecutor(project);

    const result = await executor.callTool("not_json", {});

    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("INVALID_OUTPUT");
    expect(result.error.message).toMatchInlineSnapshot(
      `"tools/not-json.py declares an outputSchema, so it must print JSON on stdout; it printed "this is not json""`,
    );
    expect(result.error.details).toEqual({ stdout: "this is not json" });
  });

  it("returns the same text as a string when no outputSchema is declared", async () => {
    const project = projectWith([toolEntry("not_json", "python", "not-json.py")], ["not-json.py"]);
    const executor = await startExecutor(project);

    expect(await executor.callTool("not_json", {})).toMatchObject({ ok: true, value: "this is not json" });
  });

  it("rejects JSON that violates the outputSchema, naming the path", async () => {
    const project = projectWith([toolEntry("wrong_shape", "python", "wrong-shape.py", { outputSchema })], ["wrong-shape.py"]);
    const executor = await startExecutor(project);

    const result = await executor.callTool("wrong_shape", {});

    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("INVALID_OUTPUT");
    expect(result.error.message).toMatchInlineSnapshot(`"The result of "wrong_shape" does not match its outputSchema: count: must be integer"`);
    expect(result.error.details?.problems).toEqual([expect.objectContaining({ path: ["count"] })]);
  });

  it("rejects empty stdout when an outputSchema is declared", async () => {
    const project = projectWith([toolEntry("quiet", "shell", "print-nothing.sh", { outputSchema })], ["print-nothing.sh"]);
    const executor = await startExecutor(project);

    const result = await executor.callTool("quiet", {});

    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("INVALID_OUTPUT");
    expect(result.error.message).toMatchInlineSnapshot(
      `"tools/print-nothing.sh declares an outputSchema, so it must print JSON on stdout; it printed nothing"`,
    );
  });
});

describe("script tools: SCRIPT_MISSING", () => {
  it("starts with a warning and fails calls of a tool whose script does not exist", async () => {
    const project = projectWith([toolEntry("ghost", "python", "ghost.py"), toolEntry("echo", "python", "echo.py")], ["echo.py"]);
    const logger = createMemoryLogger();
    const executor = await startExecutor(project, { logger });

    expect(executor.warnings).toHaveLength(1);
    expect(executor.warnings[0]).toMatchObject({ file: "tools.json", path: "tools[0].script" });
    expect(executor.warnings[0]!.message).toMatchInlineSnapshot(`"Script not found: tools/ghost.py (calls will fail with SCRIPT_MISSING until it exists)"`);
    expect(logger.warnings.join("\n")).toContain("tools/ghost.py");

    const result = await executor.callTool("ghost", {});
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("SCRIPT_MISSING");
    expect(result.error.message).toMatchInlineSnapshot(`"Script tools/ghost.py does not exist (tool "ghost"); create it or fix "script" in tools.json"`);
    expect(result.error.details).toEqual({ script: "tools/ghost.py" });
    // The other tools are unaffected.
    expect(await executor.callTool("echo", { a: 1 })).toMatchObject({ ok: true, value: { a: 1 } });
  });

  it("runs the script once it has been created, without a reload", async () => {
    const project = projectWith([toolEntry("late", "python", "late.py")], []);
    const executor = await startExecutor(project);
    expect(await executor.callTool("late", {})).toMatchObject({ ok: false, error: { code: "SCRIPT_MISSING" } });

    project.write("tools/late.py", 'print("[1, 2]")\n');

    expect(await executor.callTool("late", {})).toMatchObject({ ok: true, value: [1, 2] });
  });
});

describe("script tools: INVALID_INPUT", () => {
  const inputSchema = {
    type: "object",
    properties: { rows: { type: "array", items: { type: "object", properties: { count: { type: "integer", minimum: 0 } } } } },
    required: ["rows"],
    additionalProperties: false,
  };

  it("rejects bad arguments before any process starts, naming the failing path", async () => {
    const project = projectWith([toolEntry("marker", "python", "touch-marker.py", { inputSchema })], ["touch-marker.py"]);
    const executor = await startExecutor(project);

    const result = await executor.callTool("marker", { rows: [{ count: 1 }, { count: "two" }] });

    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("INVALID_INPUT");
    expect(result.error.message).toMatchInlineSnapshot(`"Invalid arguments for "marker": rows[1].count: must be integer"`);
    expect(result.error.details?.problems).toEqual([expect.objectContaining({ path: ["rows", 1, "count"] })]);
    expect(existsSync(project.path("marker"))).toBe(false);

    // The same tool with good arguments does run: the marker check above can fail.
    expect(await executor.callTool("marker", { rows: [{ count: 1 }] })).toMatchObject({ ok: true, value: "marked" });
    expect(existsSync(project.path("marker"))).toBe(true);
  });

  it("rejects a missing required argument and an unknown one, and arguments that are not an object", async () => {
    const project = projectWith([toolEntry("marker", "python", "touch-marker.py", { inputSchema })], ["touch-marker.py"]);
    const executor = await startExecutor(project);

    const missing = await executor.callTool("marker", { extra: true });
    const notObject = await executor.callTool("marker", ["rows"]);

    expect(missing.ok || missing.error.message).toMatchInlineSnapshot(
      `"Invalid arguments for "marker": arguments: missing required property "rows"; arguments: unknown property "extra""`,
    );
    expect(notObject.ok || notObject.error).toMatchObject({ code: "INVALID_INPUT" });
    expect(notObject.ok || notObject.error.message).toMatchInlineSnapshot(`"Expected the arguments of "marker" to be a plain object, got an array"`);
    expect(existsSync(project.path("marker"))).toBe(false);
  });
});
