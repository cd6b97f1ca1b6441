/**
 * The progress line of `tools call` and `code exec`: on a terminal (a real pseudo-terminal), one line
 * redrawn in place with the tool's progress, the time, a code run's tool calls, and a package
 * runner's first start, erased before the result; piped or with `--json`, not a byte of it.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { projectWithFakeNpx } from "../helpers/fake-npx.js";
import { createTempProject } from "../helpers/temp-project.js";
import { FIXTURES, eventually } from "../mcp/mcp-test-helpers.js";
import { runCli } from "./run-cli.js";
import { runInTerminal } from "./run-in-terminal.js";

const ERASE = "\r\x1b[K";

/** A project whose server `fixture` has `slow`, which reports progress every 100 ms. */
function slowProject() {
  return createTempProject({ tools: { tools: [] }, mcp: { mcpServers: { fixture: { command: process.execPath, args: [path.join(FIXTURES, "stdio-server.mjs")] } } } });
}

const SLOW_CALL = ["tools", "call", "fixture__slow", "--args", '{"ms":1500}'];

describe("the progress line", () => {
  it("tools call on a terminal: progress reports and time redrawn in place, erased before the result", async () => {
    const { root } = slowProject();
    const { code, output } = await runInTerminal([...SLOW_CALL, "--root", root]).done;
    expect(code).toBe(0);
    expect(output).toMatch(/\r[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] fixture__slow {2}step \d+ {2}\d+\/15 \(\d+%\) {2}\d\.\d s\x1b\[K/);
    // Redrawn, not printed line after line: no newline between two draws.
    expect(output.split(/\r?\n/).filter((line) => line.includes("fixture__slow")).length).toBe(1);
    expect(output.slice(output.lastIndexOf(ERASE))).toBe(`${ERASE}finished\r\n`);
  }, 60_000);

  it("tools call piped, and with --json on a terminal: nothing but the result", async () => {
    const { root } = slowProject();
    expect(await runCli([...SLOW_CALL, "--root", root])).toMatchObject({ code: 0, stdout: "finished\n", stderr: "" });
    const json = await runInTerminal([...SLOW_CALL, "--root", root, "--json"]).done;
    expect(json.code).toBe(0);
    expect(json.output).not.toContain("\r\x1b");
    expect(json.output).not.toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/);
    expect(JSON.parse(json.output)).toMatchObject({ ok: true, value: "finished" });
  }, 60_000);

  it("code exec on a terminal: the run's time and its tool calls", async () => {
    const { root } = slowProject();
    const code = 'call_tool("fixture", "echo", { text: "one" }); call_tool("fixture", "slow", { ms: 1500 }); "done"';
    const run = await runInTerminal(["code", "exec", "--code", code, "--root", root]).done;
    expect(run.code).toBe(0);
    expect(run.output).toMatch(/\r[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] running code {2}\d\.\d s {2}2 tool calls, last fixture__slow\x1b\[K/);
    expect(run.output).toContain(`${ERASE}done\r\n`);
    const piped = await runCli(["code", "exec", "--code", code, "--root", root]);
    expect(piped.stderr).not.toContain("running code");
    expect(piped.stderr).not.toContain("\r");
  }, 60_000);

  it("a package runner's first start: a spinner with the budget while it downloads, then the call's result", async () => {
    const { project, signal } = projectWithFakeNpx();
    // --timeout 2000 also makes the call's start-up wait 2 s: the download outlasts it, and is waited out.
    const run = runInTerminal(["tools", "call", "fetcher__echo", "--args", '{"text":"hi"}', "--timeout", "2000", "--root", project.root]);
    const shown = () => [...run.output().matchAll(/installing MCP server "fetcher" through npx: first start, may download it {2}(\d+\.\d) s of up to 2 min 00 s/g)].map((match) => Number(match[1]));
    await eventually(() => shown().some((seconds) => seconds >= 3), 30_000, "the install spinner, past the start-up wait");
    writeFileSync(signal, "");
    const { code, output } = await run.done;
    expect(code).toBe(0);
    expect(output.slice(output.lastIndexOf(ERASE))).toBe(`${ERASE}hi\r\n`);
  }, 60_000);
});
