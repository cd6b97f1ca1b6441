/** Schemas on demand: searchTools' detail "schema", the describe_tools tool, and what the listing tells models. */
import { afterEach, describe, expect, it } from "vitest";
import { createExecutor, type Executor, type ExecutorOptions } from "../../src/index.js";
import { createTempProject } from "../helpers/temp-project.js";
import { CATALOG, changingPlugin } from "./search-fixtures.js";

const opened: Executor[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((executor) => executor.close()));
});

async function executorWith(options: ExecutorOptions = {}) {
  const { root } = createTempProject({ tools: { tools: [] } });
  const executor = await createExecutor({ root, watch: false, logDir: false, mcpConfig: false, plugins: [changingPlugin().plugin], ...options });
  opened.push(executor);
  return executor;
}

const schemaOf = (name: string) => CATALOG.find((tool) => tool.name === name)?.inputSchema;

describe("schemas on demand", () => {
  it('gives each hit its inputSchema with detail "schema", and only the summary by default', async () => {
    const executor = await executorWith({ toolSearch: { embeddings: false } });
    const [summary] = await executor.searchTools("delete an email", { limit: 1 });
    expect(summary).toEqual({ name: "mail__delete_email", score: expect.any(Number), summary: "Delete an email from the mailbox." });
    const [withSchema] = await executor.searchTools("delete an email", { limit: 1, detail: "schema" });
    expect(withSchema).toEqual({ ...summary, inputSchema: schemaOf("mail__delete_email") });
    await expect(executor.searchTools("delete an email", { detail: "full" as never })).rejects.toMatchObject({ code: "INVALID_INPUT", message: 'detail must be "summary" or "schema"; got "full"' });
  });

  it("answers describe_tools with full definitions, and names the tools it does not know", async () => {
    const executor = await executorWith({ toolSearch: { offerTool: true, embeddings: false } });
    const result = await executor.callTool("describe_tools", { names: ["files__read_text", "nope"] });
    expect(result).toMatchObject({
      ok: true,
      value: [
        { name: "files__read_text", description: "Read a text file from the local disk.", inputSchema: schemaOf("files__read_text") },
        { name: "nope", error: { code: "TOOL_NOT_FOUND", message: 'No tool is named "nope"; use search_tools to find one' } },
      ],
    });
    expect(await executor.callTool("describe_tools", { names: [] })).toMatchObject({ ok: false, error: { code: "INVALID_INPUT" } });
    const searched = await executor.callTool("search_tools", { query: "delete an email", limit: 1, detail: "schema" });
    expect(searched).toMatchObject({ ok: true, value: [{ name: "mail__delete_email", inputSchema: schemaOf("mail__delete_email") }] });
  });

  it("tells models under search-first how to get a tool's schema", async () => {
    const executor = await executorWith({ toolSearch: { searchFirst: true } });
    const listed = new Map((await executor.listTools()).map((tool) => [tool.name, tool]));
    expect(listed.get("search_tools")?.description).toContain('pass detail "schema"');
    expect(listed.get("search_tools")?.description).toContain("describe_tools");
    expect(listed.has("describe_tools")).toBe(true);
  });
});
