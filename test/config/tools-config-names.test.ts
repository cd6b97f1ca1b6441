/** Tool names: unique, not reserved by a built-in tool, and within MCP's tool-name rules. */
import { describe, expect, it } from "vitest";
import { loadProjectConfig } from "../../src/config.js";
import { RESERVED_TOOL_NAMES, TOOL_NAME_PATTERN } from "../../src/plugin.js";
import { createTempProject, toolEntry } from "../helpers/temp-project.js";
import { configErrorText, loadConfigError } from "./config-test-helpers.js";

function projectWithNames(...names: string[]) {
  const project = createTempProject({ tools: { tools: names.map((name) => toolEntry(name, "shell", "echo.sh")) } });
  project.useFixtures("echo.sh");
  return project;
}

describe("tool names", () => {
  it("rejects a duplicate name, pointing at the second and naming the first", async () => {
    expect(await configErrorText(projectWithNames("echo", "other", "echo"))).toMatchInlineSnapshot(`"tools.json:22:15 tools[2].name: Duplicate tool name "echo" (first defined at tools[0]); tool names must be unique"`);
  });

  it("reports each further duplicate against the first", async () => {
    const error = await loadConfigError(projectWithNames("echo", "echo", "echo"));
    expect(error.issues.map((issue) => [issue.path, issue.message.match(/first defined at (\S+)\)/)?.[1]])).toEqual([
      ["tools[1].name", "tools[0]"],
      ["tools[2].name", "tools[0]"],
    ]);
  });

  it("treats names as case-sensitive, like MCP", async () => {
    const config = await loadProjectConfig({ root: projectWithNames("echo", "Echo").root });
    expect(config.entries.script.map((tool) => tool.name)).toEqual(["echo", "Echo"]);
  });

  it.each(RESERVED_TOOL_NAMES)("rejects the reserved name %s", async (name) => {
    const error = await loadConfigError(projectWithNames(name));
    expect(error.issues).toMatchObject([{ path: "tools[0].name", line: 4, column: 15 }]);
  });

  it("words the reserved-name message", async () => {
    expect(await configErrorText(projectWithNames("request_human_input"))).toMatchInlineSnapshot(`"tools.json:4:15 tools[0].name: Tool name "request_human_input" is reserved for a built-in tool; choose another name"`);
  });

  it("rejects a name with spaces", async () => {
    expect(await configErrorText(projectWithNames("read file"))).toMatchInlineSnapshot(`"tools.json:4:15 tools[0].name: Expected a tool name of 1-128 characters from A-Z a-z 0-9 _ - . without "__", got "read file""`);
  });

  it("rejects a name with a double underscore, which namespacing uses", async () => {
    expect(await configErrorText(projectWithNames("github__search"))).toMatchInlineSnapshot(`"tools.json:4:15 tools[0].name: Expected a tool name of 1-128 characters from A-Z a-z 0-9 _ - . without "__", got "github__search""`);
  });

  it("rejects a name longer than 128 characters, saying how long it is", async () => {
    expect(await configErrorText(projectWithNames("a".repeat(129)))).toMatchInlineSnapshot(`"tools.json:4:15 tools[0].name: Expected a tool name of 1-128 characters from A-Z a-z 0-9 _ - . without "__", got "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa..." (129 characters)"`);
  });

  it("rejects an empty name", async () => {
    expect(await configErrorText(projectWithNames(""))).toMatchInlineSnapshot(`"tools.json:4:15 tools[0].name: Expected a tool name of 1-128 characters from A-Z a-z 0-9 _ - . without "__", got """`);
  });

  it("rejects names with characters outside A-Z a-z 0-9 _ - .", async () => {
    for (const name of ["café", "a/b", "a:b", "tool!", "a\tb"]) {
      const error = await loadConfigError(projectWithNames(name));
      expect(error.issues.map((issue) => issue.path), name).toEqual(["tools[0].name"]);
    }
  });

  it("accepts names at the edges of the rules", async () => {
    const names = ["a", "a".repeat(128), "read_file", "read-file", "v1.read", "_x", "A.B-C_d"];
    for (const name of names) expect(TOOL_NAME_PATTERN.test(name), name).toBe(true);
    const config = await loadProjectConfig({ root: projectWithNames(...names).root });
    expect(config.entries.script.map((tool) => tool.name)).toEqual(names);
  });
});
