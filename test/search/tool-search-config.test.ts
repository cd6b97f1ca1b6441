/** tools.json's `toolSearch` key: search configured without code, under the `toolSearch` option key by key. */
import { describe, expect, it } from "vitest";
import { createExecutor, type ExecutorOptions } from "../../src/index.js";
import { configErrorText } from "../config/config-test-helpers.js";
import { createTempProject, toolEntry, type TempProject } from "../helpers/temp-project.js";

function project(toolSearch?: object): TempProject {
  const created = createTempProject({ tools: { tools: [toolEntry("echo", "shell", "echo.sh"), toolEntry("other", "shell", "echo.sh")], ...(toolSearch === undefined ? {} : { toolSearch }) } });
  created.useFixtures("echo.sh");
  return created;
}

async function listed(created: TempProject, options: ExecutorOptions = {}): Promise<string[]> {
  const executor = await createExecutor({ root: created.root, logDir: false, watch: false, ...options });
  try {
    return (await executor.listTools()).map((tool) => tool.name);
  } finally {
    await executor.close();
  }
}

describe("tools.json toolSearch", () => {
  it("offers search_tools, or the search-first listing with pinned tools, from the file alone", async () => {
    expect(await listed(project())).toEqual(["echo", "other", "read_result"]);
    expect(await listed(project({ offerTool: true }))).toEqual(["echo", "other", "search_tools", "describe_tools", "read_result"]);
    expect(await listed(project({ searchFirst: true, pinnedTools: ["echo"] }))).toEqual(["echo", "search_tools", "describe_tools", "call_tool", "read_result"]);
  });

  it("lets the option override the file key by key", async () => {
    const created = project({ searchFirst: true, pinnedTools: ["echo"] });
    expect(await listed(created, { toolSearch: { pinnedTools: ["other"] } })).toEqual(["other", "search_tools", "describe_tools", "call_tool", "read_result"]);
    expect(await listed(created, { toolSearch: { searchFirst: false } })).toEqual(["echo", "other", "read_result"]);
  });

  it("reports a bad value where it is, like the rest of the file", async () => {
    expect(await configErrorText(project({ semanticWeight: 2, offerTools: true }))).toMatchInlineSnapshot(`
      "2 problems in tools.json:
        tools.json:23:23 toolSearch.semanticWeight: Expected a number of at most 1, got 2
        tools.json:24:5 toolSearch.offerTools: Unknown key "offerTools" (did you mean "offerTool"?); expected one of: offerTool, searchFirst, pinnedTools, semanticWeight, model"
    `);
  });
});
