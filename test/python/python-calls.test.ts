/** Calls of real Python functions: values, print, async, exceptions, conversions. */
import { spawnSync } from "node:child_process";
import { beforeAll, describe, expect, it } from "vitest";
import type { Executor } from "../../src/index.js";
import { createMemoryLogger, pythonProject, startExecutor, textTools } from "./python-test-helpers.js";

let executor: Executor;

beforeAll(async () => {
  executor = await startExecutor(pythonProject(textTools("word_count", "echo", "chatty", "slow_hello", "fails", "rich_result", "opaque_result", "cyclic_result"), true), {}, true);
});

describe("calling Python functions", () => {
  it("returns the function's value, checked against the schema from its return annotation", async () => {
    const result = await executor.callTool("word_count", { text: "the quick brown fox" });
    expect(result).toMatchObject({ ok: true, value: 4 });
  });

  it("keeps print() off the protocol", async () => {
    const result = await executor.callTool("chatty", { name: "Ada" });
    expect(result).toMatchObject({ ok: true, value: "hi Ada" });
  });

  it("makes what a tool prints its call's logs, and only that call's", async () => {
    const logged: Array<Record<string, unknown> | undefined> = [];
    const logger = { ...createMemoryLogger(), debug: (_message: string, fields?: Record<string, unknown>) => void logged.push(fields) };
    const printing = await startExecutor(pythonProject(textTools("chatty", "word_count")), { logger });
    const chatty = await printing.callTool("chatty", { name: "Ada" });
    await printing.callTool("word_count", { text: "quiet call" });
    const logs = logged.filter((fields) => fields?.["logs"] !== undefined).map((fields) => ({ executionId: fields?.["executionId"], logs: fields?.["logs"] }));
    expect(logs).toEqual([{ executionId: chatty.executionId, logs: 'hello from the tool\n{"looks": "like a frame"}\n' }]);
  });

  it("awaits async functions", async () => {
    expect(await executor.callTool("slow_hello", { name: "Grace" })).toMatchObject({ ok: true, value: "hello Grace" });
  });

  it("round-trips JSON values unchanged", async () => {
    const value = { list: [1, 2.5, "x", null, true], nested: { "key with space": "é" } };
    expect(await executor.callTool("echo", { value })).toMatchObject({ ok: true, value });
  });

  it("answers an exception with TOOL_FAILED and a traceback of the tool's own frames only", async () => {
    const result = await executor.callTool("fails", { reason: "no disk" });
    if (result.ok) throw new Error("expected a failure");
    expect(result.error.code).toBe("TOOL_FAILED");
    expect(result.error.message).toMatchInlineSnapshot(`"fails raised ValueError: cannot go on: no disk"`);
    const traceback = String(result.error.details?.["traceback"]).replace(/File ".*\/tools\//g, 'File "tools/');
    expect(traceback).toMatchInlineSnapshot(`
      "Traceback (most recent call last):
        File "tools/text_tools.py", line 42, in fails
          explode(reason)
        File "tools/helpers_for_tools.py", line 2, in explode
          raise ValueError(f"cannot go on: {reason}")
      ValueError: cannot go on: no disk
      "
    `);
  });

  it("converts dataclasses, Decimals, dates, tuples and sets to JSON", async () => {
    expect(await executor.callTool("rich_result", {})).toMatchObject({ ok: true, value: { total: "10.25", when: "2026-01-02", tags: ["a", 1], unique: [1, 2, 3] } });
  });

  it("answers a value with no JSON form with INVALID_OUTPUT", async () => {
    const result = await executor.callTool("opaque_result", {});
    if (result.ok) throw new Error("expected a failure");
    expect(result.error).toMatchInlineSnapshot(`
      {
        "code": "INVALID_OUTPUT",
        "details": {},
        "message": "opaque_result returned a value with no JSON form: result is a builtins.object, which has no JSON form; return dicts, lists, strings, numbers, dataclasses, dates or Decimals",
      }
    `);
  });

  it("answers a result that holds itself with INVALID_OUTPUT", async () => {
    const result = await executor.callTool("cyclic_result", {});
    if (result.ok) throw new Error("expected a failure");
    expect({ code: result.error.code, message: result.error.message }).toMatchInlineSnapshot(`
      {
        "code": "INVALID_OUTPUT",
        "message": "cyclic_result returned a value with no JSON form: result refers to itself, which JSON cannot hold",
      }
    `);
  });
});

const numpy = spawnSync("python3", ["-c", "import numpy"]).status === 0;
if (!numpy) console.warn("numpy results test skipped: python3 cannot import numpy");

describe.runIf(numpy)("numpy results", () => {
  it("become lists and numbers", async () => {
    const numpyExecutor = await startExecutor(pythonProject([{ name: "numpy_result", function: "numpy_tools.py:numpy_result" }]));
    expect(await numpyExecutor.callTool("numpy_result", {})).toMatchObject({ ok: true, value: { matrix: [[0, 1, 2], [3, 4, 5]], count: 7, mean: 2.5 } });
  });
});
