/** executor.searchTools and the search_tools tool: every registry tool, kept current as tools change. */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createExecutor, type Executor } from "../../src/index.js";
import { createTempProject } from "../helpers/temp-project.js";
import { CATALOG, changingPlugin } from "./search-fixtures.js";

const opened: Executor[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((executor) => executor.close()));
});

async function executorWith(options: Parameters<typeof createExecutor>[0] = {}) {
  const project = createTempProject({ tools: { tools: [] } });
  const executor = await createExecutor({ root: project.root, watch: false, logDir: false, mcpConfig: false, ...options });
  opened.push(executor);
  return { executor, project };
}

const names = (results: Array<{ name: string }>) => results.map((result) => result.name);

describe("executor.searchTools", () => {
  it("ranks every registry tool with a score and the description's first sentence", async () => {
    const { plugin } = changingPlugin();
    const { executor } = await executorWith({ plugins: [plugin] });
    const [best] = await executor.searchTools("send a note to the chat channel", { limit: 3 });
    expect(best).toEqual({ name: "chat__send_message", score: expect.any(Number), summary: "Send a message to a chat channel." });
    expect(await executor.searchTools("calendar", { limit: 2 })).toHaveLength(2);
    expect(await executor.searchTools("   ")).toEqual([]);
  });

  it("follows a plugin's tool change, re-indexing only what changed", async () => {
    const { plugin, setTools } = changingPlugin();
    const { executor } = await executorWith({ plugins: [plugin] });
    expect(names(await executor.searchTools("hourly weather"))).toContain("forecast__hourly_outlook");
    const renamed = CATALOG.map((tool) => (tool.name === "forecast__hourly_outlook" ? { ...tool, name: "forecast__daily_outlook", description: "Daily weather forecast for a city." } : tool));
    setTools(renamed);
    const after = names(await executor.searchTools("weather forecast"));
    expect(after).toContain("forecast__daily_outlook");
    expect(after).not.toContain("forecast__hourly_outlook");
  });

  it("follows a config reload", async () => {
    const { executor, project } = await executorWith();
    expect(names(await executor.searchTools("greet someone by name"))).not.toContain("greet");
    writeFileSync(
      join(project.root, "tools.json"),
      JSON.stringify({ tools: [{ name: "greet", description: "Say hello to a person by name.", runtime: "python", script: "greet.py", inputSchema: { type: "object", properties: { name: { type: "string" } } } }] }),
    );
    expect(await executor.reload()).toMatchObject({ ok: true });
    expect(names(await executor.searchTools("greet someone by name"))[0]).toBe("greet");
  });

  it("routes a request that needs a person to request_human_input", async () => {
    const { plugin } = changingPlugin();
    const { executor } = await executorWith({ plugins: [plugin], onHumanInput: () => "yes" });
    expect(names(await executor.searchTools("rename that one"))[0]).toBe("request_human_input");
    expect(names(await executor.searchTools("should I really purge them? check with the user first"))[0]).toBe("request_human_input");
  });

  it("rejects after close", async () => {
    const { executor } = await executorWith();
    await executor.close();
    await expect(executor.searchTools("anything")).rejects.toMatchObject({ code: "EXECUTOR_CLOSED" });
  });
});

describe("the search_tools tool", () => {
  it("is offered only with toolSearch.offerTool", async () => {
    const { executor } = await executorWith();
    expect(names(await executor.listTools())).not.toContain("search_tools");
    expect(await executor.callTool("search_tools", { query: "x" })).toMatchObject({ ok: false, error: { code: "TOOL_NOT_FOUND" } });
  });

  it("answers through callTool with the same ranking as searchTools", async () => {
    const { plugin } = changingPlugin();
    const { executor } = await executorWith({ plugins: [plugin], toolSearch: { offerTool: true } });
    const result = await executor.callTool("search_tools", { query: "delete a file from disk", limit: 3 });
    expect(result.ok).toBe(true);
    expect(result.ok && result.value).toEqual(await executor.searchTools("delete a file from disk", { limit: 3 }));
    expect(result.ok && (result.value as Array<{ name: string }>)[0]?.name).toBe("files__delete_file");
  });

  it("checks its arguments like any tool", async () => {
    const { executor } = await executorWith({ toolSearch: { offerTool: true } });
    expect(await executor.callTool("search_tools", { query: "" })).toMatchObject({ ok: false, error: { code: "INVALID_INPUT" } });
    expect(await executor.callTool("search_tools", { query: "x", limit: 0 })).toMatchObject({ ok: false, error: { code: "INVALID_INPUT" } });
  });
});
