/**
 * LangChain.js: a chat model bound to toolexec's structured tools drives a multi-step loop over a real
 * python script tool and a real MCP tool (server-everything over stdio). The model is a tiny
 * `BaseChatModel` subclass that answers scripted `AIMessage`s with `tool_calls` typed `"tool_call"` as
 * LangChain's integrations make them (LangChain's own fakes repeat one answer) and converts the bound tools with LangChain's `convertToOpenAITool`, as the
 * OpenAI integration does: real LangChain code on both sides of our glue.
 */
import { BaseChatModel, type BaseChatModelCallOptions, type BindToolsInput } from "@langchain/core/language_models/chat_models";
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import { convertToOpenAITool } from "@langchain/core/utils/function_calling";
import { describe, expect, it } from "vitest";
import { toLangChainTools } from "../../src/llm/langchain.js";
import { ADD_SCHEMA, startCalculator } from "./llm-test-helpers.js";

class ScriptedChatModel extends BaseChatModel {
  /** What each call was sent: its messages and the tools bound, as the OpenAI integration would send them. */
  readonly calls: Array<{ messages: BaseMessage[]; tools: unknown[] }> = [];
  constructor(
    private readonly answers: AIMessage[],
    private readonly tools: unknown[] = [],
    calls?: ScriptedChatModel["calls"],
  ) {
    super({});
    if (calls !== undefined) this.calls = calls;
  }
  _llmType() {
    return "scripted";
  }
  override bindTools(tools: BindToolsInput[]) {
    return new ScriptedChatModel(this.answers, tools.map((tool) => convertToOpenAITool(tool)), this.calls);
  }
  async _generate(messages: BaseMessage[], _options: BaseChatModelCallOptions): Promise<ChatResult> {
    this.calls.push({ messages, tools: this.tools });
    const message = this.answers.shift() ?? new AIMessage("(no scripted answer left)");
    return { generations: [{ message, text: typeof message.content === "string" ? message.content : "" }] };
  }
}

describe("LangChain structured tools", () => {
  it("runs a multi-step loop over a script tool and an MCP tool", async () => {
    const executor = await startCalculator({ everything: true });
    const { tools, mapping } = toLangChainTools(executor, await executor.listTools(), { filter: (tool) => tool.name === "calc.add" || tool.name === "everything__echo" });
    const add = mapping.toProvider("calc.add")!;
    const chat = new ScriptedChatModel([
      new AIMessage({ content: "", tool_calls: [{ type: "tool_call", id: "c1", name: add, args: { a: 2, b: 3 } }, { type: "tool_call", id: "c2", name: "everything__echo", args: { message: "hi" } }] }),
      new AIMessage({ content: "", tool_calls: [{ type: "tool_call", id: "c3", name: add, args: { a: "two", b: 1 } }] }),
      new AIMessage("2 + 3 = 5."),
    ]);
    const model = chat.bindTools(tools);
    const messages: BaseMessage[] = [new HumanMessage("What is 2 + 3?")];

    for (let turn = 0; turn < 5; turn += 1) {
      const reply = await model.invoke(messages);
      messages.push(reply);
      if (!reply.tool_calls?.length) break;
      messages.push(...(await Promise.all(reply.tool_calls.map((call) => tools.find((tool) => tool.name === call.name)!.invoke(call)))));
    }

    expect(messages.at(-1)!.content).toBe("2 + 3 = 5.");
    expect(chat.calls).toHaveLength(3);
    expect(chat.calls[0]!.tools).toContainEqual({ type: "function", function: { name: add, description: "Add two numbers.", parameters: ADD_SCHEMA } });
    const answers = messages.filter((message): message is ToolMessage => ToolMessage.isInstance(message));
    expect(answers.map((answer) => [answer.tool_call_id, answer.name, answer.status])).toEqual([
      ["c1", add, "success"],
      ["c2", "everything__echo", "success"],
      ["c3", add, "error"],
    ]);
    expect(answers[0]!.content).toBe('{"sum":5}');
    expect(answers[0]!.artifact).toMatchObject({ ok: true, tool: "calc.add" });
    expect(answers[1]!.content).toContain("hi");
    // LangChain's schema check refused "two"; the model reads the executor's INVALID_INPUT instead of the loop throwing.
    expect(answers[2]!.content).toMatch(/^INVALID_INPUT: /);
  });

  it("answers plain arguments with the text, and a failure too", async () => {
    const executor = await startCalculator();
    const { tools } = toLangChainTools(executor, await executor.listTools());
    expect(await tools[0]!.invoke({ a: 1, b: 2 })).toBe('{"sum":3}');
    expect(await tools[0]!.invoke({ a: 1 })).toMatch(/^INVALID_INPUT: .*"b"/);
  });
});
