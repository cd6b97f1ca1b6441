/**
 * Streaming: the providers stream a tool call's arguments in pieces (OpenAI chat `tool_calls` deltas,
 * Anthropic `input_json_delta`). The official SDKs' own accumulators assemble them —
 * `chat.completions.stream(…).finalChatCompletion()` and `messages.stream(…).finalMessage()` — and the
 * run functions take the assembled message. Wire level: server-sent events from a local server.
 */
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import { describe, expect, it } from "vitest";
import { runAnthropicToolCalls, runOpenAiToolCalls, toAnthropicTools, toOpenAiChatTools } from "../../src/llm.js";
import { startCalculator } from "./llm-test-helpers.js";
import { serverSentEvents, startScriptedProvider, type ServerSentEvent } from "./scripted-provider.js";

/** `{"a": 2, "b": 3}` cut where a stream may cut it: inside a key, a number and the closing brace. */
const PIECES = ['{"', 'a": 2', ', "b', '": 3', "}"];

const chunk = (delta: object, finish: string | null = null) => ({ data: { id: "chatcmpl-1", object: "chat.completion.chunk", created: 1_700_000_000, model: "gpt-test", choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] } });

function openAiStream(name: string): ServerSentEvent[] {
  return [
    chunk({ role: "assistant", content: null, tool_calls: [{ index: 0, id: "call_1", type: "function", function: { name, arguments: "" } }] }),
    ...PIECES.map((piece) => chunk({ tool_calls: [{ index: 0, function: { arguments: piece } }] })),
    chunk({ tool_calls: [{ index: 1, id: "call_2", type: "function", function: { name, arguments: '{"a": 1' } }] }),
    chunk({}, "tool_calls"),
    { data: "[DONE]" },
  ];
}

/** An Anthropic stream event: its name is also its `type`. */
const event = (type: string, body: object = {}): ServerSentEvent => ({ event: type, data: { type, ...body } });

/** A message that opens with a text block saying `text`. */
const anthropicText = (text: string): ServerSentEvent[] => [
  event("message_start", { message: { id: "msg_1", type: "message", role: "assistant", model: "claude-test", content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1 } } }),
  event("content_block_start", { index: 0, content_block: { type: "text", text: "" } }),
  event("content_block_delta", { index: 0, delta: { type: "text_delta", text } }),
  event("content_block_stop", { index: 0 }),
];

const anthropicEnd = (stopReason: string): ServerSentEvent[] => [event("message_delta", { delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 5 } }), event("message_stop")];

function anthropicStream(name: string): ServerSentEvent[] {
  return [
    ...anthropicText("Adding."),
    event("content_block_start", { index: 1, content_block: { type: "tool_use", id: "toolu_1", name, input: {} } }),
    ...PIECES.map((piece) => event("content_block_delta", { index: 1, delta: { type: "input_json_delta", partial_json: piece } })),
    event("content_block_stop", { index: 1 }),
    ...anthropicEnd("tool_use"),
  ];
}

describe("streamed tool calls, assembled by the SDKs' accumulators", () => {
  it("OpenAI chat: finalChatCompletion() assembles the deltas; a call cut short answers INVALID_INPUT", async () => {
    const executor = await startCalculator();
    // Non-strict: for a strict tool the SDK's stream parses the arguments itself (next test).
    const { tools, mapping } = toOpenAiChatTools(await executor.listTools(), { strict: false });
    const name = mapping.toProvider("calc.add")!;
    const provider = await startScriptedProvider([serverSentEvents(openAiStream(name)), serverSentEvents([chunk({ role: "assistant", content: "5." }), chunk({}, "stop"), { data: "[DONE]" }])]);
    const openai = new OpenAI({ apiKey: "test-key", baseURL: `${provider.url}/v1`, maxRetries: 0 });
    const messages: ChatCompletionMessageParam[] = [{ role: "user", content: "2 + 3?" }];

    const completion = await openai.chat.completions.stream({ model: "gpt-test", messages, tools }).finalChatCompletion();
    const message = completion.choices[0]!.message;
    messages.push(message, ...(await runOpenAiToolCalls(executor, message, { mapping })));
    const second = await openai.chat.completions.stream({ model: "gpt-test", messages, tools }).finalChatCompletion();

    expect(second.choices[0]!.message.content).toBe("5.");
    expect(provider.requests[0]!.body.stream).toBe(true);
    const [, assistant, added, cut] = provider.requests[1]!.body.messages;
    expect(assistant.tool_calls.map((call: { function: { arguments: string } }) => call.function.arguments)).toEqual(['{"a": 2, "b": 3}', '{"a": 1']);
    expect(added).toEqual({ role: "tool", tool_call_id: "call_1", content: '{"sum":5}' });
    expect(cut.content).toMatch(/^INVALID_INPUT: the arguments are not valid JSON/);
  });

  it("Anthropic: finalMessage() assembles input_json_delta into the tool_use input", async () => {
    const executor = await startCalculator();
    const { tools, mapping } = toAnthropicTools(await executor.listTools());
    const name = mapping.toProvider("calc.add")!;
    const provider = await startScriptedProvider([serverSentEvents(anthropicStream(name)), serverSentEvents([...anthropicText("5."), ...anthropicEnd("end_turn")])]);
    const anthropic = new Anthropic({ apiKey: "test-key", baseURL: provider.url, maxRetries: 0 });
    const messages: Anthropic.MessageParam[] = [{ role: "user", content: "2 + 3?" }];

    const message = await anthropic.messages.stream({ model: "claude-test", max_tokens: 1024, messages, tools }).finalMessage();
    messages.push({ role: "assistant", content: message.content }, { role: "user", content: await runAnthropicToolCalls(executor, message, { mapping }) });
    const second = await anthropic.messages.stream({ model: "claude-test", max_tokens: 1024, messages, tools }).finalMessage();

    expect(second.content).toEqual([expect.objectContaining({ type: "text", text: "5." })]);
    expect(message.content[1]).toMatchObject({ type: "tool_use", id: "toolu_1", name, input: { a: 2, b: 3 } });
    expect(provider.requests[1]!.body.messages.at(-1).content).toEqual([{ type: "tool_result", tool_use_id: "toolu_1", content: '{"sum":5}' }]);
  });

  it("OpenAI chat: for a strict tool the SDK's stream parses the arguments itself and rejects on a cut-off call", async () => {
    const executor = await startCalculator();
    const { tools, mapping } = toOpenAiChatTools(await executor.listTools());
    expect(tools[0]!.function.strict).toBe(true);
    const provider = await startScriptedProvider([serverSentEvents(openAiStream(mapping.toProvider("calc.add")!))]);
    const openai = new OpenAI({ apiKey: "test-key", baseURL: `${provider.url}/v1`, maxRetries: 0 });
    await expect(openai.chat.completions.stream({ model: "gpt-test", messages: [{ role: "user", content: "2 + 3?" }], tools }).finalChatCompletion()).rejects.toMatchObject({ cause: expect.any(SyntaxError) });
  });
});
