/** describe_tool and search_tools, the helpers the sandbox offers when the catalog is too large to declare. */
import { describe, expect, it } from "vitest";
import { describeTool } from "../../src/plugins/code/declarations/describe-tool.js";
import { searchTools } from "../../src/plugins/code/declarations/search-tools.js";
import { bundledTools, tool, trickyTools } from "./code-declarations-fixtures.js";

const catalog = () => [
  ...bundledTools(),
  tool("github__create_issue", { type: "object", properties: { title: { type: "string" } }, required: ["title"] }, undefined, "Create an issue in a GitHub repository."),
  tool("github__list_issues", { type: "object" }, undefined, "List the open issues of a repository, newest first."),
  tool("jira__createTicket", { type: "object" }, undefined, "Open a ticket in Jira."),
  tool("code_execution", { type: "object" }, undefined, "Run code that converts anything."),
];

describe("describeTool", () => {
  it("declares one tool with its usage, found by server.tool", () => {
    expect(describeTool(catalog(), "local.unit_convert")).toMatchInlineSnapshot(`
      "// unit_convert: tools.local.unit_convert(args) or call_tool("local", "unit_convert", args)
      declare const tools: {
        local: {
          /**
           * Convert a number between units of the same kind: length (mm cm m km in ft yd mi), mass (mg g kg t oz lb), volume (ml l m3 tsp tbsp cup gal), time (ms s min h d wk), data size (B KB MB GB TB KiB MiB GiB TiB) or temperature (C F K).
           *
           * Hints: read-only, idempotent.
           */
          unit_convert(args: {
            /** The quantity to convert. */
            value: number;
            from: "mm" | "cm" | "m" | "km" | "in" | "ft" | "yd" | "mi" | "mg" | "g" | "kg" | "t" | "oz" | "lb" | "ml" | "l" | "m3" | "tsp" | "tbsp" | "cup" | "gal" | "ms" | "s" | "min" | "h" | "d" | "wk" | "B" | "KB" | "MB" | "GB" | "TB" | "KiB" | "MiB" | "GiB" | "TiB" | "C" | "F" | "K";
            to: "mm" | "cm" | "m" | "km" | "in" | "ft" | "yd" | "mi" | "mg" | "g" | "kg" | "t" | "oz" | "lb" | "ml" | "l" | "m3" | "tsp" | "tbsp" | "cup" | "gal" | "ms" | "s" | "min" | "h" | "d" | "wk" | "B" | "KB" | "MB" | "GB" | "TB" | "KiB" | "MiB" | "GiB" | "TiB" | "C" | "F" | "K";
            /** Decimal places (default 6). Integer, minimum 0, maximum 12. */
            precision?: number;
          }): Promise<{ value: number; unit: string; category: string; text: string }>;
        };
      };"
    `);
  });

  it("finds a tool by registry name or by tools.server.tool, with brackets for odd names", () => {
    const tools = trickyTools();
    expect(describeTool(tools, "my-server__get-item").split("\n")[0]).toMatchInlineSnapshot(`"// my-server__get-item: tools["my-server"]["get-item"](args) or call_tool("my-server", "get-item", args)"`);
    expect(describeTool(tools, "tools.tree.walk")).toContain("declare namespace ToolSchemas {");
  });

  it("names close matches when the tool does not exist", () => {
    expect(describeTool(catalog(), "csv_sumary")).toMatchInlineSnapshot(`"No tool named "csv_sumary". Did you mean local.csv_summary? search_tools("words") finds tools by name and description."`);
    expect(describeTool(catalog(), "issues")).toMatchInlineSnapshot(`"No tool named "issues". Did you mean github.create_issue, github.list_issues? search_tools("words") finds tools by name and description."`);
    expect(describeTool(catalog(), "zzzzzzzzzzzz")).toMatchInlineSnapshot(`"No tool named "zzzzzzzzzzzz". search_tools("words") finds tools by name and description."`);
  });

  it("never describes code_execution itself", () => {
    expect(describeTool(catalog(), "code_execution")).toMatch(/^No tool named "code_execution"\./);
  });
});

describe("searchTools", () => {
  it("ranks name matches above description matches, best first", () => {
    expect(searchTools(catalog(), "create issue")).toMatchInlineSnapshot(`
      [
        {
          "name": "github__create_issue",
          "server": "github",
          "summary": "Create an issue in a GitHub repository.",
          "tool": "create_issue",
        },
        {
          "name": "github__list_issues",
          "server": "github",
          "summary": "List the open issues of a repository, newest first.",
          "tool": "list_issues",
        },
        {
          "name": "jira__createTicket",
          "server": "jira",
          "summary": "Open a ticket in Jira.",
          "tool": "createTicket",
        },
      ]
    `);
  });

  it("splits camelCase, snake_case and kebab-case names into words", () => {
    expect(searchTools(catalog(), "ticket").map((match) => match.name)).toEqual(["jira__createTicket"]);
    expect(searchTools(catalog(), "csv").map((match) => match.name)).toEqual(["csv_summary"]);
  });

  it("matches word beginnings in descriptions and an exact name above all", () => {
    expect(searchTools(catalog(), "conver").map((match) => match.name)).toEqual(["unit_convert"]);
    expect(searchTools(catalog(), "file_stats")[0]?.name).toBe("file_stats");
    expect(searchTools(catalog(), "github.list_issues")[0]?.name).toBe("github__list_issues");
  });

  it("lists the first tools for an empty query, honours the limit and falls back to the default for a bad one", () => {
    expect(searchTools(catalog(), "  ", 2).map((match) => match.name)).toEqual(["csv_summary", "file_stats"]);
    expect(searchTools(catalog(), "issue", 1)).toHaveLength(1);
    expect(searchTools(catalog(), "", Number.NaN)).toHaveLength(6);
    expect(searchTools(catalog(), "", -3)).toHaveLength(6);
  });

  it("gives the same order for the same query whatever the registry order", () => {
    const forward = searchTools(catalog(), "issue repository");
    expect(searchTools([...catalog()].reverse(), "issue repository")).toEqual(forward);
  });

  it("finds nothing for words no tool has, and never lists code_execution", () => {
    expect(searchTools(catalog(), "kubernetes")).toEqual([]);
    expect(searchTools(catalog(), "run code").map((match) => match.name)).not.toContain("code_execution");
  });
});
