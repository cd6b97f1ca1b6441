/**
 * `toolexec code exec`: in-process through runCli for the flags and outputs, and once through the
 * built binary, which also proves the runtime is found and runs from dist/.
 */
import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/main.js";
import { TOOLEXEC_BIN } from "../helpers/toolexec-bin.mjs";
import { writeCodeProject, type CodeProject } from "./code-test-helpers.js";

const BIN = TOOLEXEC_BIN;

let project: CodeProject;
beforeAll(() => {
  project = writeCodeProject({ codeExecution: { poolSize: 1, maxToolCalls: 10 } });
  writeFileSync(path.join(project.root, "double.js"), "const r = await tools.local.echo({ n: input.n * 2 });\nconsole.log('doubled');\nr.echo.n\n");
  writeFileSync(path.join(project.root, "input.json"), '{ "n": 21 }');
});
afterAll(() => project.remove());

async function cli(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(["code", "exec", "--root", project.root, ...args], { out: (text) => out.push(text), err: (text) => err.push(text) });
  return { code, stdout: out.join("\n"), stderr: err.join("\n") };
}

describe("toolexec code exec", () => {
  it("runs --file with --input-file: the value on stdout, logs, trace and id on stderr", async () => {
    const result = await cli("--file", path.join(project.root, "double.js"), "--input-file", path.join(project.root, "input.json"));
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("42");
    expect(result.stderr).toMatch(/^logs:\n {2}doubled\ntool calls \(1\):\n {2}local\.echo {2}[\d.]+ ms {2}ok\nexecution id: [0-9a-f-]{36} \([\d.]+ ms\)$/);
  });

  it("prints the exact CodeResult with --json", async () => {
    const result = await cli("--code", "call_tool('echo', input).value", "--input", '{"a":1}', "--json");
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ ok: true, value: { echo: { a: 1 } }, executionId: expect.any(String), logs: [], toolCalls: [expect.objectContaining({ server: "local", tool: "echo", ok: true })], durationMs: expect.any(Number) });
  });

  it("exits 1 on failure with the code, message, stack and execution id", async () => {
    const result = await cli("--code", "function check(n) {\n  if (n < 0) throw new RangeError('negative: ' + n);\n}\ncheck(-1)");
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/^error RUNTIME_ERROR: RangeError: negative: -1\n {4}at check \(code\.js:2:20\)\n {4}at code\.js:4:1\nexecution id: [0-9a-f-]{36}/);
    const json = await cli("--code", "while (true) {}", "--timeout", "200", "--json");
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, error: { code: "TIMEOUT" } });
  });

  it("passes --max-tool-calls and --allowed-servers to the run, within tools.json's limits", async () => {
    const limited = await cli("--code", "[call_tool('echo', {}).ok, call_tool('echo', {}).error.code]", "--max-tool-calls", "1", "--json");
    expect(JSON.parse(limited.stdout)).toMatchObject({ ok: true, value: [true, "MAX_TOOL_CALLS_EXCEEDED"] });
    const none = await cli("--code", "call_tool('echo', {}).error.code", "--allowed-servers", "", "--json");
    expect(JSON.parse(none.stdout)).toMatchObject({ ok: true, value: "SERVER_NOT_ALLOWED" });
    const tooMany = await cli("--code", "1", "--max-tool-calls", "11");
    expect(tooMany).toMatchObject({ code: 1, stderr: expect.stringContaining("error INVALID_INPUT: options.max_tool_calls may not exceed the configured maximum of 10") });
  });

  it("exits 2 on a usage mistake", async () => {
    expect((await cli()).code).toBe(2);
    expect(await cli("--code", "1", "--file", "x.js")).toMatchObject({ code: 2, stderr: expect.stringMatching(/^toolexec code exec: Give the code with either --code or --file\n/) });
    expect(await cli("--code", "1", "--input", "{nope")).toMatchObject({ code: 2, stderr: expect.stringMatching(/^toolexec code exec: --input is not valid JSON/) });
    expect(await cli("--code", "1", "--timeout", "soon")).toMatchObject({ code: 2, stderr: expect.stringMatching(/^toolexec code exec: --timeout expects a whole number from 1/) });
  });

  it("works from the built binary (the runtime is found in dist/)", async () => {
    const result = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(process.execPath, [BIN, "code", "exec", "--root", project.root, "--code", "await tools.local.upper({ text: 'dist' })"], { timeout: 20_000 }, (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    });
    expect(result).toMatchObject({ code: 0, stdout: "DIST\n" });
  });
});
