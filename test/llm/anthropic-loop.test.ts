/**
 * Wire level: the official `@anthropic-ai/sdk`, pointed at a local server that replays Anthropic's
 * documented Messages responses, completes a two-step tool loop through toolexec with a python tool.
 */
import Anthropic from "@anthropic-ai/sdk";
import { describe, expect, it } from "vitest";
import { runAnthropicToolCalls, toAnthropicTools } from "../../src/llm.js";
import { ADD_SCHEMA, startCalculator } from "./llm-test-helpers.js";
import { anthropicMessage as message } from "./provider-responses.js";
import { startScriptedProvider } from "./scripted-provider.js";


describe("Anthropic Messages through the official SDK", () => {
  it("asks for the tool, gets its result, answers", async () => {
    const executor = await startCalculator();
    const { tools, mapping } = toAnthropicTools(await executor.listTools(), { filter: (tool) => tool.name !== "read_result" });
    const name = mapping.toProvider("calc.add")!;
    const provider = await startScriptedProvider([
      message(
        [
          { type: "text", text: "Let me add those." },
          { type: "tool_use", id: "toolu_1", name, input: { a: 2, b: 3 } },
          { type: "tool_use", id: "toolu_2", name, input: { a: "two" } },
        ],
        "tool_use",
      ),
      message([{ type: "text", text: "2 + 3 = 5." }], "end_turn"),
    ]);
    const anthropic = new Anthropic({ apiKey: "test-key", baseURL: provider.url, maxRetries: 0 });
    const messages: Anthropic.MessageParam[] = [{ role: "user", content: "What is 2 + 3?" }];

    const first = await anthropic.messages.create({ model: "claude-test", max_tokens: 1024, messages, tools });
    messages.push({ role: "assistant", content: first.content });
    messages.push({ role: "user", content: await runAnthropicToolCalls(executor, first, { mapping, timeoutMs: 10_000 }) });
    const second = await anthropic.messages.create({ model: "claude-test", max_tokens: 1024, messages, tools });

    expect(second.content).toEqual([{ type: "text", text: "2 + 3 = 5." }]);
    expect(provider.requests.map((request) => `${request.method} ${request.path}`)).toEqual(["POST /v1/messages", "POST /v1/messages"]);
    expect(provider.requests[0]!.body.tools).toEqual([{ name: "calc_add_6f91ca11", description: "Add two numbers.", input_schema: ADD_SCHEMA }]);
    const results = provider.requests[1]!.body.messages.at(-1);
    expect(results.role).toBe("user");
    expect(results.content[0]).toEqual({ type: "tool_result", tool_use_id: "toolu_1", content: '{"sum":5}' });
    expect(results.content[1]).toMatchObject({ type: "tool_result", tool_use_id: "toolu_2", is_error: true });
    expect(results.content[1].content).toMatch(/^INVALID_INPUT: /);
  });
});
