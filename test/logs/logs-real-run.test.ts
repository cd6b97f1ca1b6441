/**
 * `toolexec logs` on the log a real run wrote: `tools call` (a success, an invalid input, a failing
 * script) and `code exec` (a code run with two sub-calls), through the built CLI. The summary, the
 * error filter, the execution tree; and the log's place when a config file is named from another
 * folder (not the current folder, the same for writing and reading).
 */
import { existsSync, mkdtempSync, readdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { BIN } from "../cli/run-cli.js";
import { createTempProject, toolEntry } from "../helpers/temp-project.js";

const toolexec = (args: string[], options: { cwd?: string; env?: Record<string, string> } = {}) => execa(process.execPath, [BIN, ...args], { reject: false, timeout: 60_000, ...options });

function loggedProject() {
  const project = createTempProject({
    tools: {
      tools: [
        toolEntry("echo", "shell", "echo.sh", { inputSchema: { type: "object", properties: { message: { type: "string" } }, required: ["message"] } }),
        toolEntry("fail", "python", "exit-2.py"),
      ],
    },
  });
  project.useFixtures("echo.sh", "exit-2.py");
  return project;
}

interface Summary {
  tools: Array<{ tool: string; calls: number; errors: Record<string, number>; p50Ms: number; p95Ms: number; maxMs: number }>;
  malformedLines: number;
}

describe("toolexec logs on a real run's log", () => {
  it("summarizes per tool, lists the failures, and shows a code run as a tree", async () => {
    const project = loggedProject();
    const root = ["--root", project.root];
    expect((await toolexec(["tools", "call", "echo", "--args", '{"message":"one"}', ...root])).exitCode).toBe(0);
    expect((await toolexec(["tools", "call", "echo", "--args", '{"nope":1}', ...root])).exitCode).toBe(1);
    expect((await toolexec(["tools", "call", "fail", ...root])).exitCode).toBe(1);
    const code = await toolexec(["code", "exec", "--json", "--code", 'await tools.local.echo({ message: "a" }); return await tools.local.echo({ message: "b" });', ...root]);
    expect(code.exitCode).toBe(0);
    const codeRun = (JSON.parse(code.stdout) as { executionId: string }).executionId;

    // Read from another folder: --root names the project, whatever the current folder.
    const elsewhere = mkdtempSync(path.join(os.tmpdir(), "toolexec-elsewhere-"));
    const summary = await toolexec(["logs", "--json", ...root], { cwd: elsewhere });
    expect(summary.exitCode).toBe(0);
    const parsed = JSON.parse(summary.stdout) as Summary;
    expect(parsed.tools.map(({ tool, calls, errors }) => ({ tool, calls, errors }))).toEqual([
      { tool: "echo", calls: 4, errors: { INVALID_INPUT: 1 } },
      { tool: "code_execution", calls: 1, errors: {} },
      { tool: "fail", calls: 1, errors: { TOOL_FAILED: 1 } },
    ]);
    const echo = parsed.tools[0]!;
    expect(echo.p50Ms).toBeGreaterThan(0);
    expect(echo.p50Ms).toBeLessThanOrEqual(echo.p95Ms);
    expect(echo.p95Ms).toBeLessThanOrEqual(echo.maxMs);
    expect(parsed.malformedLines).toBe(0);

    const table = await toolexec(["logs", ...root]);
    expect(table.stdout.split("\n")[0]).toMatch(/^TOOL\s+CALLS\s+ERRORS\s+P50\s+P95\s+MAX\s+QUEUE P50\s+QUEUE P95$/);
    expect(table.stdout).toMatch(/^fail\s+1\s+TOOL_FAILED×1\s/m);

    const failures = await toolexec(["logs", "--outcome", "error", ...root]);
    const lines = failures.stdout.trim().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^\S+Z {2}error {2}echo {2}[\d.]+ m?s {2}INVALID_INPUT: Invalid arguments for "echo"/);
    expect(lines[1]).toMatch(/ {2}error {2}fail {2}.* {2}TOOL_FAILED: /);
    const byCode = await toolexec(["logs", "--code", "TOOL_FAILED", "--json", ...root]);
    expect(byCode.stdout.trim().split("\n").map((line) => (JSON.parse(line) as { tool: string }).tool)).toEqual(["fail"]);

    const tree = await toolexec(["logs", "--execution", codeRun, ...root]);
    expect(tree.exitCode).toBe(0);
    const treeLines = tree.stdout.split("\n");
    expect(treeLines).toHaveLength(3);
    expect(treeLines[0]).toMatch(new RegExp(`^\\S+ {2}ok {5}code_execution .* id=${codeRun}$`));
    expect(treeLines[1]).toMatch(new RegExp(`^├─ \\S+ {2}ok {5}echo .* parent=${codeRun}$`));
    expect(treeLines[2]).toMatch(new RegExp(`^└─ \\S+ {2}ok {5}echo .* parent=${codeRun}$`));
    const missing = await toolexec(["logs", "--execution", "no-such-id", ...root]);
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toContain('toolexec logs: No execution "no-such-id" in the log at');
  });

  it("keeps the log of a named config file in one place, whatever the current folder", async () => {
    const project = loggedProject();
    // A client's config file, as Claude Desktop's: the command runs in whatever folder the client chose.
    const clientConfig = project.write("claude_desktop_config.json", { mcpServers: {} });
    const state = mkdtempSync(path.join(os.tmpdir(), "toolexec-state-"));
    const env = { XDG_STATE_HOME: state };
    const somewhere = mkdtempSync(path.join(os.tmpdir(), "toolexec-cwd-"));
    const called = await toolexec(["code", "exec", "--code", "return 1", "--mcp-config", clientConfig, "--no-tools"], { cwd: somewhere, env });
    expect(called.exitCode).toBe(0);
    expect(existsSync(path.join(somewhere, ".toolexec", "logs"))).toBe(false);
    const [folder] = readdirSync(path.join(state, "toolexec", "logs"));
    expect(folder).toMatch(/^claude_desktop_config-[0-9a-f]{12}$/);
    const read = await toolexec(["logs", "--json", "--mcp-config", clientConfig], { cwd: os.tmpdir(), env });
    expect((JSON.parse(read.stdout) as Summary).tools).toMatchObject([{ tool: "code_execution", calls: 1 }]);
    // --log-dir wins over everything, relative to the current folder.
    const explicit = await toolexec(["tools", "call", "echo", "--args", '{"message":"y"}', "--root", project.root, "--log-dir", "my-logs"], { cwd: somewhere });
    expect(explicit.exitCode).toBe(0);
    expect(readdirSync(path.join(somewhere, "my-logs"))).toEqual(["executions.jsonl"]);
  });

  it("says so when there is no log yet, and refuses bad flags with a clear message", async () => {
    const empty = mkdtempSync(path.join(os.tmpdir(), "toolexec-empty-"));
    const none = await toolexec(["logs", "--log-dir", empty, "--json"]);
    expect(none.exitCode).toBe(0);
    expect(JSON.parse(none.stdout)).toMatchObject({ tools: [] });
    expect(none.stderr).toContain(`toolexec logs: no execution log in ${empty} yet`);
    const since = await toolexec(["logs", "--since", "yesterday"]);
    expect(since.exitCode).toBe(2);
    expect(since.stderr).toContain('toolexec logs: --since expects a duration back from now (30s, 15m, 1h, 2d) or an ISO 8601 time (2026-11-28T09:00:00Z), got "yesterday"');
    const outcome = await toolexec(["logs", "--outcome", "failed"]);
    expect(outcome.stderr).toContain('--outcome expects ok or error, got "failed"');
    const both = await toolexec(["logs", "--follow", "--execution", "x"]);
    expect(both.stderr).toContain("Give either --follow or --execution, not both");
  });
});
