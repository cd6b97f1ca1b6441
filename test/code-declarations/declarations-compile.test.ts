/** Generated declarations compile under strict with the TypeScript compiler, and model-style code type-checks against them. */
import { describe, expect, it } from "vitest";
import { describeTool } from "../../src/plugins/code/declarations/describe-tool.js";
import { generateToolDeclarations } from "../../src/plugins/code/declarations/tool-declarations.js";
import { bundledTools, humanTool, trickyTools } from "./code-declarations-fixtures.js";
import { asProgram, typeCheck } from "./type-check.js";

const DECLARATIONS = "/virtual/declarations.ts";
const PROGRAM = "/virtual/program.ts";

describe("generated declarations type-check", () => {
  it("compiles the bundled tools and request_human_input with zero errors", async () => {
    const declarations = generateToolDeclarations([...bundledTools(), await humanTool()]);
    expect(typeCheck({ [DECLARATIONS]: declarations })).toEqual([]);
  });

  it("compiles recursive $refs, weird names, quoted enums and nested arrays with zero errors", () => {
    expect(typeCheck({ [DECLARATIONS]: generateToolDeclarations(trickyTools()) })).toEqual([]);
  });

  it("compiles with no tools at all", () => {
    expect(typeCheck({ [DECLARATIONS]: generateToolDeclarations([]) })).toEqual([]);
  });

  it("compiles describe_tool's answer for each tricky tool on its own", () => {
    const tools = trickyTools();
    for (const { name } of tools) expect(typeCheck({ [DECLARATIONS]: describeTool(tools, name) }), name).toEqual([]);
  });

  it("type-checks model-style code against the bundled tools", async () => {
    const program = asProgram(`
      const r = await tools.local.unit_convert({ value: 1, from: "km", to: "mi" });
      r.value.toFixed(2);
      const summary = call_tool("local", "csv_summary", { path: "data.csv" });
      if (summary.ok) summary.value.columns.map((column) => column.name.toUpperCase());
      else summary.error.code.toLowerCase();
      const awaited = await call_tool("local", "file_stats", { path: "a.txt" });
      if (awaited.ok) awaited.value.lines.toFixed(0);
      const byName = call_tool("unit_convert", { value: 1, from: "km", to: "mi" });
      const envelopes = await call_tools([{ server: "local", tool: "file_stats", args: { path: "a.txt" } }]);
      const [first, second] = await Promise.all([tools.local.file_stats({ path: "a" }), tools.local.file_stats({ path: "b" })]);
      const answer: string = await tools.human.request_human_input({ question: "Proceed?", options: ["yes", "no"] });
      try {
        await tools.local.csv_summary({ path: "missing.csv", maxRows: 10 });
      } catch (error) {
        if (error instanceof ToolError) console.warn(error.code, error.message);
      }
      console.log(input.anything, byName.ok, envelopes.length, first.bytes + second.bytes, answer);
      const found = search_tools("convert units", 3).map((match) => match.server + "." + match.tool);
      return { found, help: describe_tool("local.csv_summary"), text: r.text };
    `);
    const declarations = generateToolDeclarations([...bundledTools(), await humanTool()]);
    expect(typeCheck({ [DECLARATIONS]: declarations, [PROGRAM]: program })).toEqual([]);
  });

  it("type-checks model-style code against the tricky tools, brackets and recursion included", () => {
    const program = asProgram(`
      const walked = await tools.tree.walk({ root: { label: "a", children: [{ label: null }] }, parity: { next: { next: {} } }, lists: [[], [[]]] });
      walked.self?.self?.depth?.toFixed(0);
      const loops = await tools.loops.alias({ json: { list: [1, "two", null, { deep: [true] }] }, ping: 3 });
      await tools.local["csv-summary"]({ path: "x" });
      await tools.local["my.tool"]();
      await tools["my-server"]["get-item"]({ "content-type": "text/plain", "2fa": true, class: 'say "hi"' });
      await tools["1password"].lookup({ quotes: "it's", matrix: [[[1, "a"]]], either: [1, null], both: { b: 2 } });
    `);
    expect(typeCheck({ [DECLARATIONS]: generateToolDeclarations(trickyTools()), [PROGRAM]: program })).toEqual([]);
  });

  it("rejects wrong arguments, so the types carry real information", () => {
    const program = asProgram(`
      await tools.local.unit_convert({ value: 1, from: "lightyear", to: "mi" });
      call_tool("local", "unit_convert", { value: "1", from: "km", to: "mi" });
      await tools.local.nope({});
    `);
    const errors = typeCheck({ [DECLARATIONS]: generateToolDeclarations(bundledTools()), [PROGRAM]: program });
    expect(errors).toMatchInlineSnapshot(`
      [
        "/virtual/program.ts:3:50 Type '"lightyear"' is not assignable to type '"mm" | "cm" | "m" | "km" | "in" | "ft" | "yd" | "mi" | "mg" | "g" | "kg" | "t" | "oz" | "lb" | "ml" | "l" | "m3" | "tsp" | "tbsp" | "cup" | "gal" | "ms" | "s" | "min" | "h" | "d" | "wk" | ... 11 more ... | "K"'.",
        "/virtual/program.ts:4:44 Type 'string' is not assignable to type 'number'.",
        "/virtual/program.ts:5:25 Property 'nope' does not exist on type '{ csv_summary(args: { path: string; columns?: string[] | undefined; delimiter?: string | undefined; maxRows?: number | undefined; }): Promise<{ path: string; rows: number; columns: { name: string; type: "number" | "text"; count: number; missing: number; }[]; }>; file_stats(args: { ...; }): Promise<...>; unit_convert...'.",
      ]
    `);
  });
});
