/** The built-ins are found for what they do, among many product tools and a web_search stand-in. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExecutor, type Executor } from "../../src/index.js";
import type { ToolDefinition } from "../../src/plugin.js";
import { createTempProject } from "../helpers/temp-project.js";
import { CATALOG, changingPlugin } from "./search-fixtures.js";

/** Stands in for the web_search built-in (its own plugin): the name and a description of that kind. */
const WEB_SEARCH: ToolDefinition = {
  name: "web_search",
  description: "Search the web. Returns results with a title, URL and snippet for each.",
  inputSchema: { type: "object", properties: { query: { type: "string" }, count: { type: "integer" } }, required: ["query"] },
};

let executor: Executor;
beforeAll(async () => {
  const project = createTempProject({ tools: { tools: [] }, sharedByFile: true });
  // The real code_execution replaces the fixture's sandbox stand-in.
  const { plugin } = changingPlugin([...CATALOG.filter((tool) => tool.name !== "sandbox__code_execution"), WEB_SEARCH]);
  executor = await createExecutor({
    root: project.root,
    watch: false,
    logDir: false,
    mcpConfig: false,
    plugins: [plugin],
    onHumanInput: async () => "staging",
    codeExecution: { enabled: true, poolSize: 1 },
  });
});
afterAll(async () => {
  await executor?.close();
});

const first = async (query: string) => (await executor.searchTools(query, { limit: 3 }))[0]?.name;

describe("routing to the built-ins", () => {
  it.each([
    ["ask the user which environment to deploy to"],
    ["check with a person whether the old backups may go"],
    ["delete them"],
  ])("asks a person: %s", async (query) => {
    expect(await first(query)).toBe("request_human_input");
  });

  it.each([
    ["run some code to compute the standard deviation of these latencies"],
    ["what is 18% of 2,340 plus a 35 flat fee, over 12 months"],
    ["for each open issue in the tracker, read the file it names and send a message with the totals"],
  ])("writes a program: %s", async (query) => {
    expect(await first(query)).toBe("code_execution");
  });

  it.each([["look up today's news about the rail strike"], ["find recent articles on the new EU battery rules"], ["search the web for the TypeScript 6 release notes"]])(
    "searches the web: %s",
    async (query) => {
      expect(await first(query)).toBe("web_search");
    },
  );

  it("keeps product requests with the product's tool", async () => {
    expect(await first("send a note to the chat channel")).toBe("chat__send_message");
    expect(await first("hourly weather forecast for Oslo")).toBe("forecast__hourly_outlook");
  });
});
