/**
 * What code gets and gives back, end to end through real runtimes and real script tools: the
 * result rules, `input`, every way to call a tool, console capture, discovery helpers, and the
 * error codes of a run (SYNTAX_ERROR, RUNTIME_ERROR with user-line stacks, NOT_SERIALIZABLE,
 * OUTPUT_TOO_LARGE).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CodeResult } from "../../src/plugins/code/code-result.js";
import { openCodeExecutor, type CodeSetup } from "./code-test-helpers.js";
import { testToolsPlugin } from "./fixtures/test-tools-plugin.js";

let setup: CodeSetup;
beforeAll(async () => {
  setup = await openCodeExecutor({ plugins: [testToolsPlugin().plugin], codeExecution: { maxResultBytes: 10_000, maxLogBytes: 2_000 } });
});
afterAll(() => setup.close());

const run = (code: string, input?: unknown) => setup.executor.executeCode({ code, ...(input === undefined ? {} : { input }) });

function value(result: CodeResult): unknown {
  if (!result.ok) throw new Error(`run failed: ${result.error.code}: ${result.error.message}`);
  return result.value;
}

function error(result: CodeResult) {
  if (result.ok) throw new Error(`expected a failure, got ${JSON.stringify(result.value)}`);
  return result.error;
}

describe("the result", () => {
  it("is the last expression statement, a top-level return, or null", async () => {
    expect(value(await run("const a = 2;\na * 21"))).toBe(42);
    expect(value(await run("if (true) return 'early'\n'late'"))).toBe("early");
    expect(value(await run("const a = 1;"))).toBeNull();
    expect(value(await run("undefined"))).toBeNull();
  });

  it("awaits a returned promise and supports top-level await", async () => {
    expect(value(await run("await Promise.resolve(1) + 1"))).toBe(2);
    expect(value(await run("Promise.resolve({ a: [1, 'x', null, true] })"))).toEqual({ a: [1, "x", null, true] });
  });

  it("has the envelope shape", async () => {
    const result = await run("1");
    expect(result).toEqual({ ok: true, value: 1, executionId: expect.any(String), logs: [], toolCalls: [], durationMs: expect.any(Number) });
  });

  it("gives code its own deep copy of input, null when absent", async () => {
    const input = { list: [1, 2], nested: { a: 1 } };
    expect(value(await run("input.list.push(3); input.nested.a = 9; input", input))).toEqual({ list: [1, 2, 3], nested: { a: 9 } });
    expect(input).toEqual({ list: [1, 2], nested: { a: 1 } });
    expect(value(await run("input"))).toBeNull();
  });

  it("keeps the meaning of code SES would have rejected: strings with import( and eval(, comments, a-->b", async () => {
    const code = "// see import('x')\nconst s = \"import(a) eval(b) <!-- -->\";\nlet n = 3; let k = 0; while (n-->0) k++;\n[s, k, eval('1 + 1')]";
    expect(value(await run(code))).toEqual(["import(a) eval(b) <!-- -->", 3, 2]);
  });

  it("writes Errors as { name, message } and Dates as ISO strings", async () => {
    expect(value(await run("({ e: new TypeError('bad'), d: new Date(0) })"))).toEqual({
      e: { name: "TypeError", message: "bad" },
      d: "1970-01-01T00:00:00.000Z",
    });
  });
});

describe("calling tools", () => {
  it("call_tool works with and without await, by server and tool or by registry name", async () => {
    const result = await run(
      "const a = call_tool('local', 'echo', { n: 1 });\nconst b = await call_tool('local', 'echo', { n: 2 });\nconst c = call_tool('add', { a: 2, b: 3 });\n[a, b, c]",
    );
    expect(value(result)).toEqual([
      { ok: true, value: { echo: { n: 1 } } },
      { ok: true, value: { echo: { n: 2 } } },
      { ok: true, value: 5 },
    ]);
    expect(result.toolCalls.map(({ server, tool, ok }) => `${server}.${tool}:${ok}`)).toEqual(["local.echo:true", "local.echo:true", "local.add:true"]);
  });

  it("call_tool returns a tool's failure as a value, never a throw", async () => {
    type Failure = { ok: false; error: { code: string; message: string } };
    const [failed, invalid, missing] = value(await run("[call_tool('local', 'fail', {}), call_tool('local', 'upper', { text: 5 }), call_tool('local', 'ech', {})]")) as [Failure, Failure, Failure];
    expect(failed).toEqual({ ok: false, error: { code: "TOOL_FAILED", message: expect.stringContaining("ValueError: bad row 7") } });
    expect(invalid.error.code).toBe("INVALID_INPUT");
    expect(missing.error).toEqual({ code: "TOOL_NOT_FOUND", message: 'No tool local.ech; did you mean local.echo? (search_tools("words") lists tools)' });
  });

  it("tools.<server>.<tool> resolves to the value and rejects with a ToolError", async () => {
    const code = `
const upper = await tools.local.upper({ text: "abc" });
let caught;
try { await tools.local.fail({}) } catch (error) { caught = { isToolError: error instanceof ToolError, isError: error instanceof Error, code: error.code, name: error.name, message: error.message } }
({ upper, caught, servers: Object.keys(tools), local: Object.keys(tools.local) })`;
    expect(value(await run(code))).toEqual({
      upper: "ABC",
      caught: { isToolError: true, isError: true, code: "TOOL_FAILED", name: "ToolError", message: expect.stringMatching(/^local\.fail: /) },
      servers: ["local"],
      local: ["add", "barrier", "bigint", "delete_saved_tool", "echo", "fail", "list_saved_tools", "read_result", "save_tool", "show_saved_tool", "slow", "track", "upper", "wait"],
    });
  });

  it("fans out with Promise.all and call_tools, answers in order", async () => {
    const code = `
const all = await Promise.all([1, 2, 3].map((n) => tools.local.echo({ n })));
const envelopes = await call_tools([{ server: "local", tool: "add", args: { a: 1, b: 1 } }, { server: "local", tool: "nope" }, { name: "add", args: { a: 2, b: 2 } }]);
({ all: all.map((r) => r.echo.n), envelopes })`;
    expect(value(await run(code))).toEqual({
      all: [1, 2, 3],
      envelopes: [{ ok: true, value: 2 }, { ok: false, error: expect.objectContaining({ code: "TOOL_NOT_FOUND" }) }, { ok: true, value: 4 }],
    });
  });

  it("sends async calls queued before a synchronous call ahead of it", async () => {
    const result = await run("const pending = [tools.local.echo({ n: 1 }), tools.local.echo({ n: 2 })];\nconst sum = call_tool('local', 'add', { a: 1, b: 2 }).value;\n[sum, ...(await Promise.all(pending)).map((r) => r.echo.n)]");
    expect(value(result)).toEqual([3, 1, 2]);
    expect(result.toolCalls.map((call) => call.tool)).toEqual(["echo", "echo", "add"]);
  });

  it("fans out past ten calls at once without Node's listener-leak warning", async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on("warning", onWarning);
    try {
      const result = await run("(await call_tools(Array.from({ length: 25 }, (_, n) => ({ server: 'local', tool: 'add', args: { a: n, b: 0 } })))).length");
      expect(value(result)).toBe(25);
      // Warnings are emitted on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off("warning", onWarning);
    }
    expect(warnings).not.toContain("MaxListenersExceededWarning");
  });

  it("an uncaught ToolError fails the run with the tool's code in the message", async () => {
    expect(error(await run("await tools.local.fail({})"))).toMatchObject({ code: "RUNTIME_ERROR", message: expect.stringMatching(/^Uncaught ToolError TOOL_FAILED: local\.fail: /) });
  });

  it("waits for tool calls still under way when the code returns, and turns a value JSON cannot hold into a call failure", async () => {
    const result = await run("tools.local.echo({ late: true }); call_tool('local', 'bigint', {})");
    expect(value(result)).toEqual({ ok: false, error: { code: "NOT_SERIALIZABLE", message: expect.stringContaining("BigInt") } });
    expect(result.toolCalls.map((call) => call.tool).sort()).toEqual(["bigint", "echo"]);
    expect(result.toolCalls.every((call) => call.durationMs > 0)).toBe(true);
  });

  it("carries large arguments and answers both ways, synchronously and not", async () => {
    const code = "const text = 'x'.repeat(300000);\nconst sync = call_tool('local', 'echo', { text }).value.echo.text.length;\nconst wrapped = (await tools.local.echo({ text })).echo.text.length;\n[sync, wrapped]";
    expect(value(await run(code))).toEqual([300000, 300000]);
  });

  it("refuses arguments JSON cannot hold, saying where", async () => {
    expect(value(await run("call_tool('local', 'echo', { f: () => 1 })"))).toEqual({
      ok: false,
      error: { code: "NOT_SERIALIZABLE", message: "arguments.f is a function, which JSON cannot hold; call it, or leave it out" },
    });
  });
});

describe("console and discovery", () => {
  it("captures console lines with their level, bounded", async () => {
    const result = await run("console.log('a', 1, { b: [2] }); console.info('i'); console.warn('w'); console.error(new Error('e')); 0");
    expect(result.logs).toEqual(["a 1 { b: [ 2 ] }", "[info] i", "[warn] w", expect.stringMatching(/^\[error\] Error: e\n {4}at code\.js:1:\d+/)]);
    const flood = await run("for (let i = 0; i < 10000; i++) console.log('line ' + i); 'done'");
    expect(value(flood)).toBe("done");
    expect(flood.logs.join("\n").length).toBeLessThan(2_500);
    expect(flood.logs.at(-1)).toMatch(/^\[toolexec\] later log lines were dropped/);
  });

  it("describe_tool and search_tools answer from the live registry", async () => {
    const [description, matches] = value(await run("[describe_tool('local.add'), search_tools('add numbers', 2)]")) as [string, Array<{ name: string }>];
    expect(description).toContain("add(args: {");
    expect(matches[0]).toMatchObject({ name: "add", server: "local", tool: "add" });
  });
});

describe("run errors", () => {
  it("SYNTAX_ERROR before anything runs, at the line and column as written", async () => {
    const result = await run("console.log('never');\nconst x = ;");
    expect(error(result)).toEqual({ code: "SYNTAX_ERROR", message: "Unexpected token at line 2, column 11" });
    expect(result.logs).toEqual([]);
  });

  it("RUNTIME_ERROR with a stack whose frames point at the code's own lines and columns", async () => {
    const failure = error(await run('const s = "import(";\nfunction inner() {\n  return s.missing.field;\n}\ninner();'));
    expect(failure.code).toBe("RUNTIME_ERROR");
    expect(failure.message).toBe("TypeError: Cannot read properties of undefined (reading 'field')");
    expect(failure.stack).toBe("TypeError: Cannot read properties of undefined (reading 'field')\n    at inner (code.js:3:20)\n    at code.js:5:1");
  });

  it("reports a thrown non-error and an error thrown after await", async () => {
    expect(error(await run("throw 'plain'"))).toEqual({ code: "RUNTIME_ERROR", message: 'Uncaught "plain"' });
    expect(error(await run("await null;\nthrow new RangeError('late')"))).toMatchObject({ message: "RangeError: late", stack: expect.stringContaining("code.js:2:7") });
  });

  it("NOT_SERIALIZABLE names what and where", async () => {
    const cases: Array<[string, string]> = [
      ["({ a: [1, () => 2] })", "result.a[1] is a function, which JSON cannot hold; call it, or leave it out"],
      ["({ s: Symbol('x') })", "result.s is a symbol, which JSON cannot hold"],
      ["({ n: 10n })", "result.n is a BigInt (10n), which JSON cannot hold; convert it with String() or Number()"],
      ["const o = { inner: {} }; o.inner.back = o; o", "result.inner.back refers back to result: circular structures cannot become JSON"],
      ["({ m: new Map([[1, 2]]) })", "result.m is a Map, which JSON cannot hold; use Object.fromEntries(map) or [...map]"],
      ["({ 'odd key': new Set() })", 'result["odd key"] is a Set, which JSON cannot hold; use [...set]'],
    ];
    for (const [code, message] of cases) expect(error(await run(code))).toEqual({ code: "NOT_SERIALIZABLE", message });
  });

  it("OUTPUT_TOO_LARGE past the result cap, in the runtime, naming the limit", async () => {
    expect(error(await run("'x'.repeat(20000)"))).toEqual({ code: "OUTPUT_TOO_LARGE", message: expect.stringContaining("larger than 10000 bytes as JSON") });
    expect(error(await run("'é'.repeat(6000)"))).toEqual({ code: "OUTPUT_TOO_LARGE", message: expect.stringContaining("12002 bytes as JSON, over the limit of 10000") });
  });
});
