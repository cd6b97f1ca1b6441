/**
 * Type-level: what toolexec/llm (and its ai-sdk and langchain entries) produces is assignable to the
 * official SDKs' own types (openai, @anthropic-ai/sdk, @google/genai, ai, @langchain/core), and what
 * the SDKs return is accepted by the run functions. `npm run typecheck` checks this file; the runtime
 * part only makes sure the values exist.
 */
import type Anthropic from "@anthropic-ai/sdk";
import type { Content, GenerateContentConfig, Part, Schema, Tool as GeminiSdkTool } from "@google/genai";
import type { ChatCompletionMessage, ChatCompletionMessageParam, ChatCompletionTool } from "openai/resources/chat/completions";
import type { FunctionTool, Response, ResponseInputItem } from "openai/resources/responses/responses";
import type { BindToolsInput } from "@langchain/core/language_models/chat_models";
import type { ToolCall, ToolMessage } from "@langchain/core/messages";
import type { StructuredToolInterface } from "@langchain/core/tools";
import type { generateText, ToolModelMessage, ToolSet, TypedToolCall } from "ai";
import { describe, expect, expectTypeOf, it } from "vitest";
import type { Executor } from "../../src/index.js";
import {
  runAnthropicToolCalls,
  runGeminiToolCalls,
  runOpenAiResponsesToolCalls,
  runOpenAiToolCalls,
  toAnthropicTools,
  toGeminiSchema,
  toGeminiTools,
  toOpenAiChatTools,
  toOpenAiResponsesTools,
  type AnthropicAssistantMessage,
  type GeminiModelContent,
  type OpenAiAssistantMessage,
} from "../../src/llm.js";
import { runAiSdkToolCalls, toAiSdkTools, type AiSdkToolCall } from "../../src/llm/ai-sdk.js";
import { toLangChainTools } from "../../src/llm/langchain.js";

const tools = [{ name: "docs.site__search", description: "Search.", inputSchema: { type: "object", properties: { q: { type: "string" } }, required: ["q"] } }];
const executor: Pick<Executor, "callTool"> = {
  callTool: async (name) => ({ ok: true, value: { name }, executionId: "1", tool: name, durationMs: 1 }),
};

describe("official SDK types", () => {
  it("OpenAI Chat Completions: tools, assistant message in, tool messages out", async () => {
    const chatTools: ChatCompletionTool[] = toOpenAiChatTools(tools).tools;
    expectTypeOf<ChatCompletionMessage>().toExtend<OpenAiAssistantMessage>();
    const message: ChatCompletionMessage = { role: "assistant", content: null, refusal: null, tool_calls: [{ id: "c1", type: "function", function: { name: "x", arguments: "{}" } }] };
    const next: ChatCompletionMessageParam[] = [message, ...(await runOpenAiToolCalls(executor, message))];
    expect([chatTools.length, next.length]).toEqual([1, 2]);
  });

  it("OpenAI Responses API: tools, output items in, function call outputs out", async () => {
    const responseTools: FunctionTool[] = toOpenAiResponsesTools(tools).tools;
    const runResponse = (response: Response) => runOpenAiResponsesToolCalls(executor, response.output);
    const outputs: ResponseInputItem[] = await runOpenAiResponsesToolCalls(executor, [{ type: "function_call", call_id: "c1", name: "x", arguments: "{}" }]);
    expect([responseTools.length, outputs.length, typeof runResponse]).toEqual([1, 1, "function"]);
  });

  it("Anthropic Messages: tools, message in, tool_result blocks out", async () => {
    const anthropicTools: Anthropic.Tool[] = toAnthropicTools(tools).tools;
    expectTypeOf<Anthropic.Message>().toExtend<AnthropicAssistantMessage>();
    const results: Anthropic.ToolResultBlockParam[] = await runAnthropicToolCalls(executor, { content: [{ type: "tool_use", id: "t1", name: "x", input: {} }] });
    const reply: Anthropic.MessageParam = { role: "user", content: results };
    expect([anthropicTools.length, reply.content.length]).toEqual([1, 1]);
  });

  it("Gemini: tools and schemas, content in, functionResponse parts out", async () => {
    const geminiTools: GeminiSdkTool[] = toGeminiTools(tools).tools;
    const config: GenerateContentConfig = { tools: geminiTools };
    const schema: Schema = toGeminiSchema({ type: "string" });
    expectTypeOf<Content>().toExtend<GeminiModelContent>();
    const parts: Part[] = await runGeminiToolCalls(executor, { role: "model", parts: [{ functionCall: { name: "x", args: {} } }] });
    const reply: Content = { role: "user", parts };
    expect([config.tools?.length, schema.type, reply.parts?.length]).toEqual([1, "STRING", 1]);
  });

  it("Vercel AI SDK: a ToolSet for generateText, its tool calls in, tool-result parts out", async () => {
    const toolSet: ToolSet = toAiSdkTools(executor, tools).tools;
    const settings: Parameters<typeof generateText>[0] = { model: "any/model", tools: toolSet, prompt: "hi" };
    expectTypeOf<TypedToolCall<ToolSet>>().toExtend<AiSdkToolCall>();
    const message: ToolModelMessage = { role: "tool", content: await runAiSdkToolCalls(executor, [{ toolCallId: "c1", toolName: "x", input: {} }]) };
    expect([Object.keys(toolSet).length, typeof settings.tools, message.content.length]).toEqual([1, "object", 1]);
  });

  it("LangChain: structured tools for bindTools, a tool call in, a ToolMessage out", async () => {
    const langChainTools = toLangChainTools(executor, tools).tools;
    const bindable: BindToolsInput[] = langChainTools;
    const structured: StructuredToolInterface[] = langChainTools;
    const call: ToolCall = { type: "tool_call", id: "c1", name: langChainTools[0]!.name, args: { q: "x" } };
    const answer: ToolMessage | string = await langChainTools[0]!.invoke(call);
    expect([bindable.length, structured.length, typeof answer]).toEqual([1, 1, "object"]);
  });
});
