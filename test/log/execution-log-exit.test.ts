/** A host process that ends without close(): the records still waiting for their batch are written as it exits. */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { createTempProject, toolEntry, type TempProject } from "../helpers/temp-project.js";
import { DEFAULT_LOG_PATH, readLogRecords } from "./log-test-helpers.js";

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

/**
 * Runs a host that makes three calls (one tool killed by a signal, one with 10,000-key arguments: a
 * large record, redacted in slices by a flush that never comes) and ends in `how`, never closing its executor.
 */
function runHost(project: TempProject, how: "exit" | "throw" | "return") {
  const ending = { exit: "process.exit(0);", throw: 'throw new Error("host crashed");', return: "" }[how];
  const source = `import { createExecutor } from ${JSON.stringify(pathToFileURL(path.join(REPO_ROOT, "src/index.ts")).href)};
const executor = await createExecutor({ root: process.argv[2], watch: false, logger: { debug() {}, info() {}, warn: console.error, error: console.error } });
const wide = { password: "pw-exit-secret", ...Object.fromEntries(Array.from({ length: 10000 }, (_, index) => ["k" + index, "v" + index])) };
const results = [await executor.callTool("echo", { n: 1 }), await executor.callTool("killed", {}), await executor.callTool("echo", wide)];
console.log(JSON.stringify(results.map((result) => result.executionId)));
${ending}
`;
  const script = project.write("host.mts", source);
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", script, project.root], { cwd: REPO_ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk));
    const hung = setTimeout(() => child.kill("SIGKILL"), 20_000);
    child.on("error", reject);
    child.on("exit", (code) => {
      clearTimeout(hung);
      resolve({ code, stdout, stderr });
    });
  });
}

describe("execution log at process exit", () => {
  it.each([
    ["calls process.exit()", "exit", 0],
    ["dies of an uncaught exception", "throw", 1],
    ["lets its event loop run empty", "return", 0],
  ] as const)("writes every call of a host that %s without close()", async (_, how, exitCode) => {
    const project = createTempProject({ tools: { tools: [toolEntry("echo", "shell", "echo.sh"), toolEntry("killed", "shell", "killed.sh")] } });
    project.write("tools/echo.sh", "cat\n");
    project.write("tools/killed.sh", "kill -KILL $$\n");
    const outcome = await runHost(project, how);
    expect(outcome.code, outcome.stderr).toBe(exitCode);
    const executionIds = JSON.parse(outcome.stdout) as string[];
    expect(readLogRecords(project.path(DEFAULT_LOG_PATH))).toEqual([
      expect.objectContaining({ executionId: executionIds[0], tool: "echo", ok: true, value: { n: 1 } }),
      expect.objectContaining({ executionId: executionIds[1], tool: "killed", ok: false, error: expect.objectContaining({ code: "TOOL_FAILED" }) }),
      expect.objectContaining({ executionId: executionIds[2], tool: "echo", ok: true, arguments: expect.objectContaining({ truncated: true, preview: expect.stringMatching(/^\{"password":"\[REDACTED\]","k0":"v0"/) }) }),
    ]);
    expect(readFileSync(path.join(project.path(DEFAULT_LOG_PATH), "executions.jsonl"), "utf8")).not.toContain("pw-exit-secret");
  }, 30_000);
});
