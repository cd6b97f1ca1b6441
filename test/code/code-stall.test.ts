/**
 * Sandboxed code cannot stall the host: names, `describe_tool` arguments and `search_tools`
 * queries of megabytes, and arguments of 200,000 keys, are refused with INVALID_INPUT before the
 * host compares, suggests, searches or walks them, and the host's event loop stays responsive (≤ 50 ms beyond its idle baseline) while a
 * program sends them. Before the bounds, a 4 MB name blocked the host 5–42 s in the "did you mean"
 * suggestion and a 60,000-capital query 17–20 s in the search tokenizer.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toolEntry } from "../helpers/temp-project.js";
import { measureStall, parseFrameOf } from "../helpers/event-loop-stall.js";
import { openCodeExecutor, type CodeSetup } from "./code-test-helpers.js";

/** What the host may lose to the work, beyond its idle baseline. */
const BOUND_MS = 50;
const FOUR_MB = 4 * 1024 * 1024;
/** What receiving one 4 MB frame costs the host at least, whatever is in it. */
const STALL = { boundMs: BOUND_MS, attempts: 5, reference: parseFrameOf(FOUR_MB) };

/**
 * 50 ms beyond the baseline on a quiet machine. When both cores are busy every step stretches with
 * the frame's parse, and a program sending several such frames back to back costs a few parses:
 * the bound is then the parse's own stall. The defects guarded against held the loop for seconds.
 */
const boundOf = (stall: { baselineMs: number }) => Math.max(BOUND_MS, stall.baselineMs);

let setup: CodeSetup;
beforeAll(async () => {
  // A catalog of 200 tools: the suggestion compared a name with each of them.
  const many = Array.from({ length: 200 }, (_, index) => toolEntry(`report_${index}`, "python", "echo.py", { description: `Report number ${index} of the quarterly numbers.` }));
  setup = await openCodeExecutor({ codeExecution: { enabled: true, poolSize: 1, timeoutMs: 60_000 } }, { tools: many });
}, 60_000);
afterAll(async () => setup?.close());

describe("over-long fields from code", () => {
  it("refuses a 4 MB server or tool name fast, without stalling the host", async () => {
    const code = `
      const big = "D".repeat(${FOUR_MB});
      return [call_tool("local", big, {}).error, call_tool(big, "echo", {}).error, call_tool(big + "__x", {}).error];`;
    const stall = await measureStall(() => setup.executor.executeCode({ code }), STALL);
    const run = stall.value;
    expect(run).toMatchObject({ ok: true });
    const errors = run.ok ? (run.value as Array<{ code: string; message: string }>) : [];
    expect(errors.map((error) => error.code)).toEqual(["INVALID_INPUT", "INVALID_INPUT", "INVALID_INPUT"]);
    expect(errors[0]!.message).toBe(`The tool name is ${FOUR_MB} characters long; the limit is 256`);
    expect(errors[1]!.message).toBe(`The server name is ${FOUR_MB} characters long; the limit is 256`);
    // The trace holds the names cut, not megabytes.
    for (const call of run.toolCalls ?? []) expect(call.tool.length + call.server.length).toBeLessThan(600);
    expect(stall.attributableMs).toBeLessThanOrEqual(boundOf(stall));
  }, 60_000);

  it("refuses a 4 MB describe_tool name and search_tools query with a ToolError", async () => {
    const code = `
      const big = "D".repeat(${FOUR_MB});
      const caught = [];
      for (const ask of [() => describe_tool(big), () => search_tools(big)]) {
        try { ask(); caught.push(null); } catch (error) { caught.push({ name: error.name, code: error.code, message: error.message }); }
      }
      return caught;`;
    const stall = await measureStall(() => setup.executor.executeCode({ code }), STALL);
    expect(stall.value).toMatchObject({
      ok: true,
      value: [
        { name: "ToolError", code: "INVALID_INPUT", message: `The tool name is ${FOUR_MB} characters long; the limit is 256` },
        { name: "ToolError", code: "INVALID_INPUT", message: `The search query is ${FOUR_MB} characters long; the limit is 2000` },
      ],
    });
    expect(stall.attributableMs).toBeLessThanOrEqual(boundOf(stall));
  }, 60_000);

  it("keeps a search within the limit of capitals fast: the tokenizer is linear", async () => {
    const code = `return [search_tools("D".repeat(2000)).length, search_tools("quarterly report", 3).map((match) => match.name)]`;
    const stall = await measureStall(() => setup.executor.executeCode({ code }), STALL);
    expect(stall.value).toMatchObject({ ok: true, value: [0, expect.arrayContaining([expect.stringMatching(/^report_/)])] });
    expect(stall.attributableMs).toBeLessThanOrEqual(boundOf(stall));
  }, 60_000);

  it("in a loop of a thousand over-long calls, stays responsive", async () => {
    const code = `
      const big = "x".repeat(100000);
      let refused = 0;
      for (let i = 0; i < 1000; i++) if (call_tool("local", big + i, {}).error.code === "INVALID_INPUT") refused++;
      return refused;`;
    const stall = await measureStall(() => setup.executor.executeCode({ code }), STALL);
    expect(stall.value).toMatchObject({ ok: true, value: 1000 });
    expect(stall.attributableMs).toBeLessThanOrEqual(boundOf(stall));
  }, 60_000);

  it("refuses arguments of 200,000 keys with INVALID_INPUT before the host walks them", async () => {
    const code = `
      const wide = {};
      for (let i = 0; i < 200000; i++) wide["k" + i] = i;
      return call_tool("local", "report_0", wide).error;`;
    const stall = await measureStall(() => setup.executor.executeCode({ code }), STALL);
    expect(stall.value).toMatchObject({
      ok: true,
      value: { code: "INVALID_INPUT", message: "The arguments hold more than 25000 keys and items (all levels together); pass fewer, or a file or reference instead" },
    });
    expect(stall.attributableMs).toBeLessThanOrEqual(boundOf(stall));
  }, 120_000);

  it("passes arguments within the limit: a table of 1,000 rows of 20 columns", async () => {
    const code = `
      const rows = Array.from({ length: 1000 }, (_, row) => Object.fromEntries(Array.from({ length: 20 }, (_, column) => ["c" + column, row])));
      return call_tool("local", "report_0", { rows }).value.echo.rows.length;`;
    expect(await setup.executor.executeCode({ code })).toMatchObject({ ok: true, value: 1000 });
  }, 120_000);
});
