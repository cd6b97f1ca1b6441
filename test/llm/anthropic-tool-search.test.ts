/**
 * Anthropic's tool search with toolexec's ranking, at the wire: the official `@anthropic-ai/sdk`
 * against a local server speaking the Messages format. Tools go out with `defer_loading: true`
 * beside a loaded search tool; Claude's search call is answered with `tool_reference` blocks;
 * the tool it then calls runs through the executor.
 */
import Anthropic from "@anthropic-ai/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { createExecutor, type Executor } from "../../src/index.js";
import { ANTHROPIC_TOOL_SEARCH_NAME, runAnthropicSearchToolCalls, toAnthropicSearchTools } from "../../src/llm.js";
import { createTempProject } from "../helpers/temp-project.js";
import { changingPlugin } from "../search/search-fixtures.js";
import { anthropicMessage as message } from "./provider-responses.js";
import { startScriptedProvider } from "./scripted-provider.js";

const opened: Executor[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((executor) => executor.close()));
});

describe("Anthropic tool search through the official SDK", () => {
  it("defers every tool, answers the search with tool_reference blocks, then runs the tool found", async () => {
    const { root } = createTempProject({ tools: { tools: [] } });
    const executor = await createExecutor({ root, watch: false, logDir: false, mcpConfig: false, plugins: [changingPlugin().plugin], toolSearch: { offerTool: true, embeddings: false } });
    opened.push(executor);
    const { tools, mapping } = toAnthropicSearchTools(await executor.listTools(), { loadedTools: ["chat__send_message"] });
    const provider = await startScriptedProvider([
      message([{ type: "tool_use", id: "toolu_1", name: ANTHROPIC_TOOL_SEARCH_NAME, input: { query: "delete an email", limit: 2 } }], "tool_use"),
      message([{ type: "tool_use", id: "toolu_2", name: mapping.toProvider("mail__delete_email")!, input: { messageId: "m-1" } }], "tool_use"),
      message([{ type: "text", text: "Deleted." }], "end_turn"),
    ]);
    const anthropic = new Anthropic({ apiKey: "test-key", baseURL: provider.url, maxRetries: 0 });
    const messages: Anthropic.MessageParam[] = [{ role: "user", content: "Remove the spam mail m-1." }];
    for (let turn = 0; turn < 3; turn++) {
      const reply = await anthropic.messages.create({ model: "claude-test", max_tokens: 1024, messages, tools: tools as Anthropic.Tool[] });
      if (reply.stop_reason !== "tool_use") break;
      messages.push({ role: "assistant", content: reply.content });
      messages.push({ role: "user", content: (await runAnthropicSearchToolCalls(executor, reply, { mapping })) as Anthropic.ToolResultBlockParam[] });
    }

    const sent = provider.requests[0]!.body.tools as Array<{ name: string; defer_loading?: boolean }>;
    expect(sent[0]).toMatchObject({ name: ANTHROPIC_TOOL_SEARCH_NAME });
    expect(sent[0]).not.toHaveProperty("defer_loading");
    expect(sent.find((tool) => tool.name === mapping.toProvider("chat__send_message"))).not.toHaveProperty("defer_loading");
    expect(sent.filter((tool) => tool.defer_loading === true).map((tool) => mapping.fromProvider(tool.name)).sort()).toEqual(
      (await executor.listTools()).map((tool) => tool.name).filter((name) => !["chat__send_message", "search_tools", "describe_tools"].includes(name)).sort(),
    );
    expect(provider.requests[1]!.body.messages.at(-1)).toEqual({
      role: "user",
      content: [{ type: "tool_result", tool_use_id: "toolu_1", content: [{ type: "tool_reference", tool_name: mapping.toProvider("mail__delete_email") }, { type: "tool_reference", tool_name: expect.any(String) }] }],
    });
    expect(provider.requests[2]!.body.messages.at(-1).content).toEqual([{ type: "tool_result", tool_use_id: "toolu_2", content: "null" }]);
  });

  it("answers a search without a query as an error the model can read", async () => {
    const { root } = createTempProject({ tools: { tools: [] } });
    const executor = await createExecutor({ root, watch: false, logDir: false, mcpConfig: false, toolSearch: { embeddings: false } });
    opened.push(executor);
    const results = await runAnthropicSearchToolCalls(executor, { content: [{ type: "tool_use", id: "toolu_9", name: ANTHROPIC_TOOL_SEARCH_NAME, input: {} }] });
    expect(results).toEqual([{ type: "tool_result", tool_use_id: "toolu_9", content: "INVALID_INPUT: query must be a non-empty string", is_error: true }]);
  });
});
