/** The registry name ↔ server/tool rule that the declarations and the runtime share. */
import { describe, expect, it } from "vitest";
import { listCodeModeTools } from "../../src/plugins/code/declarations/code-mode-catalog.js";
import { toRegistryName, toServerAndTool } from "../../src/plugins/code/declarations/tool-address.js";
import { tool } from "./code-declarations-fixtures.js";

describe("toServerAndTool / toRegistryName", () => {
  it.each([
    ["csv_summary", "local", "csv_summary"],
    ["csv-summary.v2", "local", "csv-summary.v2"],
    ["github__create_issue", "github", "create_issue"],
    ["my-server__get.item", "my-server", "get.item"],
    // Only the first `__` separates: an MCP tool's own name may contain `__`.
    ["server__tool__part", "server", "tool__part"],
    ["request_human_input", "human", "request_human_input"],
  ])("maps %s to %s / %s and back", (name, server, toolName) => {
    expect(toServerAndTool(name)).toEqual({ server, tool: toolName });
    expect(toRegistryName(server, toolName)).toBe(name);
  });

  it("keeps names with an empty side of `__` whole, as local tools", () => {
    expect(toServerAndTool("__private")).toEqual({ server: "local", tool: "__private" });
    expect(toServerAndTool("trailing__")).toEqual({ server: "local", tool: "trailing__" });
  });

  it("namespaces any other tool of the human server like an MCP tool, so it cannot reach a local one", () => {
    expect(toRegistryName("human", "csv_summary")).toBe("human__csv_summary");
  });
});

describe("listCodeModeTools", () => {
  const tools = [
    tool("zeta__b", {}),
    tool("unit_convert", {}),
    tool("code_execution", {}),
    tool("alpha__a", {}),
    tool("csv_summary", {}),
    tool("request_human_input", {}),
    tool("drop_table", {}),
  ];

  it("leaves out code_execution and excluded names, sorting local first, then servers and tools", () => {
    expect(listCodeModeTools(tools, ["drop_table"]).map(({ server, tool: name }) => `${server}.${name}`)).toEqual([
      "local.csv_summary",
      "local.unit_convert",
      "alpha.a",
      "human.request_human_input",
      "zeta.b",
    ]);
  });

  it("keeps the first of two tools with the same address", () => {
    const catalog = listCodeModeTools([tool("local__x", {}, undefined, "first"), tool("x", {}, undefined, "second")]);
    expect(catalog.map((entry) => [entry.name, entry.definition.description])).toEqual([["local__x", "first"]]);
  });
});
