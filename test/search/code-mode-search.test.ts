/** Code mode's search_tools ranks like executor.searchTools, kept to the tools code may call. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExecutor, type Executor } from "../../src/index.js";
import { createTempProject } from "../helpers/temp-project.js";
import { changingPlugin } from "./search-fixtures.js";

let executor: Executor;
beforeAll(async () => {
  const project = createTempProject({ tools: { tools: [] }, sharedByFile: true });
  executor = await createExecutor({
    root: project.root,
    watch: false,
    logDir: false,
    mcpConfig: false,
    plugins: [changingPlugin().plugin],
    codeExecution: { enabled: true, poolSize: 1, excludeTools: ["mail__delete_email"] },
  });
});
afterAll(async () => {
  await executor?.close();
});

async function searchInCode(query: string, limit: number): Promise<string[]> {
  const result = await executor.executeCode({ code: `search_tools(${JSON.stringify(query)}, ${limit}).map((match) => match.name)` });
  if (!result.ok) throw new Error(result.error.message);
  return result.value as string[];
}

describe("search_tools in code mode", () => {
  it("gives the executor's ranking: stems, related words and the request's action", async () => {
    const query = "which issues are still open in the tracker?";
    const ranked = (await executor.searchTools(query, { limit: 3 })).map((result) => result.name);
    expect(ranked[0]).toBe("tracker__list_issues");
    expect(await searchInCode(query, 3)).toEqual(ranked);
  });

  it("leaves out the tools code may not call", async () => {
    expect(await searchInCode("delete an email from the mailbox", 10)).not.toContain("mail__delete_email");
    expect((await executor.searchTools("delete an email from the mailbox", { limit: 1 }))[0]?.name).toBe("mail__delete_email");
  });

  it("lists the first tools for a blank query", async () => {
    expect(await searchInCode("", 2)).toHaveLength(2);
  });
});
