/** The tool-address rule: a tool's declared server, never a parsed name. */
import { describe, expect, it } from "vitest";
import { toolAddress } from "../../src/plugins/code/declarations/tool-address.js";

describe("toolAddress", () => {
  it("addresses a tool by the server its definition names", () => {
    expect(toolAddress({ name: "github__create_issue", server: { name: "github", tool: "create_issue" } })).toEqual({ server: "github", tool: "create_issue" });
    expect(toolAddress({ name: "request_human_input", server: { name: "human", tool: "request_human_input" } })).toEqual({ server: "human", tool: "request_human_input" });
  });

  it("never parses names: servers with spaces or __ keep their names, and a local name with __ stays local", () => {
    expect(toolAddress({ name: "my_server__a__b", server: { name: "my server", tool: "a__b" } })).toEqual({ server: "my server", tool: "a__b" });
    expect(toolAddress({ name: "a__b__echo", server: { name: "a__b", tool: "echo" } })).toEqual({ server: "a__b", tool: "echo" });
    expect(toolAddress({ name: "csv__summary" })).toEqual({ server: "local", tool: "csv__summary" });
    expect(toolAddress({ name: "csv_summary" })).toEqual({ server: "local", tool: "csv_summary" });
  });
});
