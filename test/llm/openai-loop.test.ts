/**
 * Wire level: the official `openai` SDK, pointed at a local server that replays OpenAI's documented
 * responses, completes a two-step tool loop through toolexec with a real python script tool.
 */
import OpenAI from "openai";
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import type { ResponseInputItem } from "openai/resources/responses/responses";
import { describe, expect, it } from "vitest";
import { runOpenAiResponsesToolCalls, runOpenAiToolCalls, toOpenAiChatTools, toOpenAiResponsesTools } from "../../src/llm.js";
import { startCalculator } from "./llm-test-helpers.js";
import { openAiCompletion as completion, openAiResponse as response } from "./provider-responses.js";
import { startScriptedProvider } from "./scripted-provider.js";


describe("OpenAI Chat Completions through the official SDK", () => {
  it("asks for the tool, gets its result, answers", async () => {
    const executor = await startCalculator();
    const { tools, mapping, nonStrict } = toOpenAiChatTools(await executor.listTools(), { filter: (tool) => tool.name !== "read_result" });
    const name = mapping.toProvider("calc.add")!;
    const provider = await startScriptedProvider([
      completion(
        {
          content: null,
          tool_calls: [
            // Strict mode: the optional `note` comes as null, which the tool's own schema refuses.
            { id: "call_1", type: "function", function: { name, arguments: '{"a":2,"b":3,"note":null}' } },
            { id: "call_2", type: "function", function: { name, arguments: '{"a":2,' } },
          ],
        },
        "tool_calls",
      ),
      completion({ content: "2 + 3 = 5." }, "stop"),
    ]);
    const openai = new OpenAI({ apiKey: "test-key", baseURL: `${provider.url}/v1`, maxRetries: 0 });
    const messages: ChatCompletionMessageParam[] = [{ role: "user", content: "What is 2 + 3?" }];

    const first = await openai.chat.completions.create({ model: "gpt-test", messages, tools });
    const message = first.choices[0]!.message;
    messages.push(message, ...(await runOpenAiToolCalls(executor, message, { mapping, timeoutMs: 10_000 })));
    const second = await openai.chat.completions.create({ model: "gpt-test", messages, tools });

    expect(second.choices[0]!.message.content).toBe("2 + 3 = 5.");
    expect(nonStrict).toEqual([]);
    expect(provider.requests.map((request) => `${request.method} ${request.path}`)).toEqual(["POST /v1/chat/completions", "POST /v1/chat/completions"]);
    expect(provider.requests[0]!.body.tools).toEqual([
      {
        type: "function",
        function: {
          name: "calc_add_6f91ca11",
          description: "Add two numbers.",
          strict: true,
          parameters: { type: "object", properties: { a: { type: "number" }, b: { type: "number" }, note: { type: ["string", "null"] } }, required: ["a", "b", "note"], additionalProperties: false },
        },
      },
    ]);
    expect(provider.requests[1]!.body.messages.slice(2)).toMatchInlineSnapshot(`
      [
        {
          "content": "{"sum":5}",
          "role": "tool",
          "tool_call_id": "call_1",
        },
        {
          "content": "INVALID_INPUT: the arguments are not valid JSON; send one JSON object. Received: {"a":2,",
          "role": "tool",
          "tool_call_id": "call_2",
        },
      ]
    `);
  });
});

describe("OpenAI Responses API through the official SDK", () => {
  it("asks for the tool, gets its result, answers", async () => {
    const executor = await startCalculator();
    const { tools, mapping } = toOpenAiResponsesTools(await executor.listTools(), { filter: (tool) => tool.name !== "read_result" });
    const provider = await startScriptedProvider([
      response([{ type: "function_call", id: "fc_1", call_id: "call_1", name: mapping.toProvider("calc.add"), arguments: '{"a":4,"b":5,"note":"sum"}', status: "completed" }]),
      response([{ type: "message", id: "msg_1", role: "assistant", status: "completed", content: [{ type: "output_text", text: "9", annotations: [] }] }]),
    ]);
    const openai = new OpenAI({ apiKey: "test-key", baseURL: `${provider.url}/v1`, maxRetries: 0 });
    const input: ResponseInputItem[] = [{ role: "user", content: "4 + 5?" }];

    const first = await openai.responses.create({ model: "gpt-test", input, tools });
    // The SDK types every output item kind, some of which are not input kinds; function calls are both.
    input.push(...(first.output as ResponseInputItem[]), ...(await runOpenAiResponsesToolCalls(executor, first.output, { mapping })));
    const second = await openai.responses.create({ model: "gpt-test", input, tools });

    expect(second.output_text).toBe("9");
    expect(provider.requests[0]!.body.tools[0]).toMatchObject({ type: "function", name: "calc_add_6f91ca11", strict: true });
    expect(provider.requests[1]!.body.input.at(-1)).toEqual({ type: "function_call_output", call_id: "call_1", output: '{"sum":9}' });
  });
});
