/** Script tools that succeed: how stdout becomes the value, each runtime, stdin and argv. */
import { describe, expect, it } from "vitest";
import { projectWith, startExecutor, toolEntry } from "./script-test-helpers.js";

describe("script tools: successful calls", () => {
  it("parses JSON stdout into the value (python) and reports the envelope fields", async () => {
    const project = projectWith([toolEntry("echo", "python", "echo.py")], ["echo.py"]);
    const executor = await startExecutor(project);
    const args = { text: "héllo", count: 3, nested: { list: [1, null, true] } };

    const result = await executor.callTool("echo", args);

    expect(result).toMatchObject({ ok: true, value: args, tool: "echo" });
    expect(result.executionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(result.durationMs).toBeGreaterThan(0);
  });

  it("runs shell tools with bash and node tools with the host's node", async () => {
    const project = projectWith([toolEntry("echo_shell", "shell", "echo.sh"), toolEntry("echo_node", "node", "echo.mjs")], ["echo.sh", "echo.mjs"]);
    const executor = await startExecutor(project);

    const [shell, node] = await Promise.all([executor.callTool("echo_shell", { from: "bash" }), executor.callTool("echo_node", { from: "node" })]);

    expect(shell).toMatchObject({ ok: true, value: { from: "bash" } });
    expect(node).toMatchObject({ ok: true, value: { runtime: "node", arguments: { from: "node" } } });
  });

  it("returns plain-text stdout as a string with only the final newline stripped", async () => {
    const project = projectWith([toolEntry("text", "python", "print-text.py")], ["print-text.py"]);
    const executor = await startExecutor(project);

    const result = await executor.callTool("text", {});

    expect(result).toMatchObject({ ok: true, value: "  indented first line\nsecond line\n" });
  });

  it("returns null when the script prints nothing", async () => {
    const project = projectWith([toolEntry("quiet", "shell", "print-nothing.sh")], ["print-nothing.sh"]);
    const executor = await startExecutor(project);

    const result = await executor.callTool("quiet", {});

    expect(result.ok).toBe(true);
    expect(result.ok && result.value).toBeNull();
  });

  it("sends the arguments as JSON on stdin and tools.json's `args` as argv", async () => {
    const project = projectWith([toolEntry("argv", "python", "print-argv.py", { args: ["--mode", "fast", "two words"] })], ["print-argv.py"]);
    const executor = await startExecutor(project);

    const result = await executor.callTool("argv", { path: "data/a.csv", limit: 5 });

    expect(result).toMatchObject({ ok: true, value: { argv: ["--mode", "fast", "two words"], stdin: { path: "data/a.csv", limit: 5 } } });
  });

  it("sends {} on stdin when the call has no arguments", async () => {
    const project = projectWith([toolEntry("echo", "python", "echo.py")], ["echo.py"]);
    const executor = await startExecutor(project);

    const result = await executor.callTool("echo");

    expect(result).toMatchObject({ ok: true, value: {} });
  });

  it("succeeds when a script never reads a ~1 MB argument payload from stdin (no EPIPE failure)", async () => {
    const project = projectWith([toolEntry("ignore_stdin", "shell", "ignore-stdin.sh")], ["ignore-stdin.sh"]);
    const executor = await startExecutor(project);
    const payload = { blob: "x".repeat(1024 * 1024) };

    const results = [];
    // Several runs: whether the write meets a closed pipe depends on how fast the script exits.
    for (let run = 0; run < 3; run++) results.push(await executor.callTool("ignore_stdin", payload));

    for (const result of results) expect(result).toMatchObject({ ok: true, value: "did not read stdin" });
  });

  it("runs the script in the project root by default, or in its `cwd`", async () => {
    const project = projectWith([toolEntry("pwd", "shell", "pwd.sh"), toolEntry("pwd_sub", "shell", "pwd.sh", { cwd: "tools" })], []);
    project.write("tools/pwd.sh", "pwd\n");
    const executor = await startExecutor(project);

    const [atRoot, inTools] = await Promise.all([executor.callTool("pwd", {}), executor.callTool("pwd_sub", {})]);

    expect(atRoot).toMatchObject({ ok: true, value: project.root });
    expect(inTools).toMatchObject({ ok: true, value: project.path("tools") });
  });
});
