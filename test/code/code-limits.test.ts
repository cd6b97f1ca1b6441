/**
 * Limits that hold against code that tries to break them: every way of never finishing ends in
 * TIMEOUT at the deadline, memory bombs in MEMORY_LIMIT, deep recursion in
 * RUNTIME_ERROR; the host lives on, later runs work, and a run's tool calls are cancelled when
 * it ends and refused after.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ToolResult } from "../../src/index.js";
import { openCodeExecutor, type CodeSetup } from "./code-test-helpers.js";
import { LATENESS_MARGIN_MS } from "../helpers/lateness-margin.js";
import { isRunning } from "../helpers/processes.js";
import { testToolsPlugin, type TestToolsState } from "./fixtures/test-tools-plugin.js";

/** How late a TIMEOUT may come after the deadline (a quiet machine: under 50 ms); the code itself never ends. */
const DEADLINE_SLACK_MS = LATENESS_MARGIN_MS;

let setup: CodeSetup;
let state: TestToolsState;
beforeAll(async () => {
  const tools = testToolsPlugin();
  state = tools.state;
  setup = await openCodeExecutor({ plugins: [tools.plugin], codeExecution: { memoryLimitMb: 64, poolSize: 2 } });
  await setup.executor.executeCode({ code: "0" });
});
afterAll(() => setup.close());

async function timed(code: string, timeoutMs: number) {
  const started = Date.now();
  const result = await setup.executor.executeCode({ code, options: { timeout_ms: timeoutMs } });
  return { result, late: Date.now() - started - timeoutMs };
}

const stillWorks = async () => expect(await setup.executor.executeCode({ code: "40 + 2" })).toMatchObject({ ok: true, value: 42 });

describe("TIMEOUT", () => {
  const endless: Array<[string, string]> = [
    ["a synchronous loop", "while (true) {}"],
    ["a loop after await", "await null;\nfor (;;) {}"],
    ["a loop in toJSON of the result", "({ toJSON() { for (;;) {} } })"],
    ["a loop in a getter of the result", "({ get value() { for (;;) {} } })"],
    ["a microtask flood", "const spin = async () => { for (;;) await null; };\nawait spin()"],
    ["a promise that never settles", "await new Promise(() => {})"],
    ["a thenable result whose then loops", "({ then() { for (;;) {} } })"],
    ["a loop in the stack getter of a thrown object", "throw { get stack() { for (;;) {} }, message: 'x' }"],
  ];
  for (const [what, code] of endless) {
    it(`stops ${what} at the deadline`, async () => {
      // A warm runtime first: the one the previous test killed is still being replaced.
      await stillWorks();
      const { result, late } = await timed(code, 250);
      expect(result).toMatchObject({ ok: false, error: { code: "TIMEOUT", message: "The code did not finish within 250 ms and was stopped" } });
      expect(late).toBeLessThan(DEADLINE_SLACK_MS);
    });
  }

  it("cancels the run's tool calls under way, killing a script's process, and keeps the logs so far", async () => {
    const pidFile = path.join(setup.project.root, "slow.pid");
    const aborted = state.aborted.length;
    await stillWorks();
    const code = `console.log("before");\ntools.local.wait({});\ncall_tool("local", "slow", { pidFile: ${JSON.stringify(pidFile)}, seconds: 30 })`;
    // Long enough for the script to start and write its pid even on a heavily loaded machine.
    const { result, late } = await timed(code, 4_000);
    expect(result).toMatchObject({ ok: false, error: { code: "TIMEOUT" }, logs: ["before"] });
    expect(late).toBeLessThan(DEADLINE_SLACK_MS);
    await expect.poll(() => state.aborted.slice(aborted)).toEqual(["CANCELLED"]);
    expect(existsSync(pidFile)).toBe(true);
    const pid = Number(readFileSync(pidFile, "utf8"));
    await expect.poll(() => isAlive(pid), { timeout: 2_000 }).toBe(false);
    await stillWorks();
  });
});

const isAlive = isRunning;

describe("MEMORY_LIMIT and stack depth", () => {
  const bombs: Array<[string, string]> = [
    ["an array of arrays", "const keep = []; for (;;) keep.push(new Array(1e5).fill(1.5))"],
    ["one large array", "new Array(2e7).fill(1.5).length"],
    ["a doubling string", "let s = 'x'; for (;;) s += s"],
    ["typed arrays outside the heap", "const keep = []; for (;;) keep.push(new Uint8Array(32 * 1024 * 1024).fill(1))"],
    ["ArrayBuffers", "const keep = []; for (;;) { const buffer = new ArrayBuffer(16 * 1024 * 1024); new Uint8Array(buffer).fill(7); keep.push(buffer) }"],
  ];
  for (const [what, code] of bombs) {
    it(`ends ${what} with MEMORY_LIMIT and the host lives on`, async () => {
      const { result } = await timed(code, 15_000);
      expect(result).toMatchObject({ ok: false, error: { code: "MEMORY_LIMIT" } });
      await stillWorks();
    });
  }

  it("ends unbounded recursion with RUNTIME_ERROR, and recursion the code catches lets it go on", async () => {
    const { result } = await timed("function down(n) { return down(n + 1) + 1 }\ndown(0)", 10_000);
    expect(result).toMatchObject({ ok: false, error: { code: "RUNTIME_ERROR", message: "RangeError: Maximum call stack size exceeded", stack: expect.stringMatching(/^RangeError: Maximum call stack size exceeded\n {4}at down \(code\.js:1:\d+\)/) } });
    const caught = await timed("const down = (n) => down(n + 1);\nlet outcome;\ntry { down(0) } catch (error) { outcome = 'recovered from ' + error.name }\noutcome", 10_000);
    expect(caught.result).toMatchObject({ ok: true, value: "recovered from RangeError" });
  });
});

describe("after the run", () => {
  it("refuses tool calls made by code still running after its result, and recycles that runtime", async () => {
    const calls: ToolResult[] = [];
    const unsubscribe = setup.executor.on("tool:end", (result) => calls.push(result));
    try {
      const code = "tools.local.wait({ ms: 30 }).then(() => 0).then(() => 0).then(() => 0).then(() => 0).then(() => call_tool('local', 'echo', { late: true }));\n'returned'";
      const result = await setup.executor.executeCode({ code });
      expect(result).toMatchObject({ ok: true, value: "returned" });
      expect(result.toolCalls.map((call) => call.tool)).toEqual(["wait"]);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(calls.filter((call) => call.tool === "echo")).toEqual([]);
      await stillWorks();
    } finally {
      unsubscribe();
    }
  });

  it("a floating microtask loop after the result does not stop the next runs", async () => {
    expect(await setup.executor.executeCode({ code: "(async () => { for (;;) await null })();\n'answered'" })).toMatchObject({ ok: true, value: "answered" });
    for (let index = 0; index < 3; index++) await stillWorks();
  });
});

describe("when the host dies", () => {
  it("a runtime stuck in a loop ends itself once its host is gone (orphan watchdog)", async () => {
    const distIndex = new URL("../../dist/index.js", import.meta.url).href;
    const script = `
import { readFileSync } from "node:fs";
import { createExecutor } from ${JSON.stringify(distIndex)};
const executor = await createExecutor({ root: ${JSON.stringify(setup.project.root)}, watch: false, logDir: false, codeExecution: { enabled: true, poolSize: 1 } });
// The run calls echo, then loops: once echo has ended, the runtime is in the loop; then the host dies.
executor.on("tool:end", ({ tool }) => {
  if (tool !== "echo") return;
  const children = readFileSync("/proc/" + process.pid + "/task/" + process.pid + "/children", "utf8").trim().split(" ").filter(Boolean);
  console.log(JSON.stringify(children.map(Number)));
  process.kill(process.pid, "SIGKILL");
});
void executor.executeCode({ code: "call_tool('echo', {}); while (true) {}" });`;
    if (process.platform !== "linux") return;
    const { spawnSync } = await import("node:child_process");
    const host = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8", timeout: 20_000 });
    const runtimes = JSON.parse(host.stdout) as number[];
    expect(runtimes.length).toBeGreaterThan(0);
    await expect.poll(() => runtimes.filter(isAlive), { timeout: 5_000, interval: 100 }).toEqual([]);
  });
});
