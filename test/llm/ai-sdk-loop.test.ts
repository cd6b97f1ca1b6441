/**
 * The Vercel AI SDK: `generateText` with the AI SDK's own mock language model (`ai/test`) runs a
 * multi-step loop through `toAiSdkTools`, calling a real python script tool and a real MCP tool
 * (server-everything over stdio); and tool calls run by the host with `runAiSdkToolCalls`.
 */
import { generateText, stepCountIs, type ModelMessage } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import type { LanguageModelV3CallOptions, LanguageModelV3Content, LanguageModelV3GenerateResult } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { runAiSdkToolCalls, toAiSdkTools, type AiSdkToolOutput } from "../../src/llm/ai-sdk.js";
import type { ToolCallProgressEvent } from "../../src/llm.js";
import { ADD_SCHEMA, startCalculator } from "./llm-test-helpers.js";

const usage = { inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 5, text: 5, reasoning: 0 } };
const step = (content: LanguageModelV3Content[]): LanguageModelV3GenerateResult => ({
  content,
  finishReason: { unified: content.some((part) => part.type === "tool-call") ? "tool-calls" : "stop", raw: undefined },
  usage,
  warnings: [],
});
const call = (toolCallId: string, toolName: string, input: object): LanguageModelV3Content => ({ type: "tool-call", toolCallId, toolName, input: JSON.stringify(input) });

/** The tool messages the model was sent in a request, as `[toolCallId, output]`. */
const toolOutputs = (request: LanguageModelV3CallOptions) =>
  request.prompt.flatMap((message) => (message.role === "tool" ? message.content.flatMap((part) => (part.type === "tool-result" ? [[part.toolCallId, part.output] as const] : [])) : []));

describe("Vercel AI SDK tools", () => {
  it("runs a multi-step generateText loop over a script tool and an MCP tool", async () => {
    const executor = await startCalculator({ everything: true });
    const events: string[] = [];
    const { tools, mapping } = toAiSdkTools(executor, await executor.listTools(), { filter: (tool) => tool.name === "calc.add" || tool.name === "everything__echo", onProgress: (event: ToolCallProgressEvent) => events.push(`${event.type} ${event.tool}`) });
    const add = mapping.toProvider("calc.add")!;
    const model = new MockLanguageModelV3({
      doGenerate: [
        step([call("c1", add, { a: 2, b: 3 }), call("c2", "everything__echo", { message: "hi" })]),
        step([call("c3", add, { a: "two", b: 1 })]),
        step([{ type: "text", text: "2 + 3 = 5." }]),
      ],
    });

    const result = await generateText({ model, tools, stopWhen: stepCountIs(5), prompt: "What is 2 + 3?" });

    expect(result.text).toBe("2 + 3 = 5.");
    expect(result.steps).toHaveLength(3);
    expect(Object.keys(tools).sort()).toEqual([add, "everything__echo"].sort());
    const sent = model.doGenerateCalls[0]!.tools!;
    expect(sent.find((tool) => tool.name === add)).toMatchObject({ type: "function", description: "Add two numbers.", inputSchema: ADD_SCHEMA });
    const [first, second] = [toolOutputs(model.doGenerateCalls[1]!), toolOutputs(model.doGenerateCalls[2]!)];
    expect(first[0]).toEqual(["c1", { type: "json", value: { sum: 5 } }]);
    expect(first[1]![1]).toMatchObject({ type: "text", value: expect.stringContaining("hi") });
    expect(second.at(-1)![1]).toMatchObject({ type: "error-text", value: expect.stringMatching(/^INVALID_INPUT: /) });
    const output = result.steps[0]!.toolResults[0]!.output as AiSdkToolOutput;
    expect(output).toMatchObject({ isError: false, text: '{"sum":5}', result: { ok: true, tool: "calc.add" } });
    expect(events.filter((event) => event.startsWith("end")).sort()).toEqual(["end calc.add", "end calc.add", "end everything__echo"]);
  });

  it("runs tool calls the host took over, answering tool-result parts the next request accepts", async () => {
    const executor = await startCalculator();
    const { tools, mapping } = toAiSdkTools(executor, await executor.listTools());
    const add = mapping.toProvider("calc.add")!;
    // Without execute the AI SDK stops at the calls and leaves them to the host (as AI SDK UI's onToolCall does).
    const declared = { [add]: { description: tools[add]!.description, inputSchema: tools[add]!.inputSchema } };
    const model = new MockLanguageModelV3({ doGenerate: [step([call("c1", add, { a: 4, b: 5 }), call("c2", add, { a: 4 })]), step([{ type: "text", text: "9." }])] });
    const messages: ModelMessage[] = [{ role: "user", content: "4 + 5?" }];

    const first = await generateText({ model, tools: declared, messages });
    messages.push(...first.response.messages, { role: "tool", content: await runAiSdkToolCalls(executor, first.toolCalls, { mapping }) });
    const second = await generateText({ model, tools: declared, messages });

    expect(second.text).toBe("9.");
    expect(toolOutputs(model.doGenerateCalls[1]!)).toEqual([
      ["c1", { type: "json", value: { sum: 9 } }],
      ["c2", { type: "error-text", value: expect.stringMatching(/^INVALID_INPUT: .*missing required property "b"/) }],
    ]);
  });
});
