/**
 * Runs the tool calls of an OpenAI answer: a Chat Completions assistant message's `tool_calls`
 * (arguments as JSON strings) become `role: "tool"` messages, and a Responses API output's
 * `function_call` items become `function_call_output` items, ready for the next request.
 */
import type { Executor } from "../index.js";
import { runToolCalls, type RunToolCallsOptions } from "./run-tool-calls.js";

/** The part of a Chat Completions assistant message this reads (`ChatCompletionMessage` fits). */
export interface OpenAiAssistantMessage {
  tool_calls?: Array<{ id: string; type: string; function?: { name: string; arguments: string } }> | null;
}

/** A Chat Completions tool message (`ChatCompletionToolMessageParam` in `openai`). */
export interface OpenAiToolMessage {
  role: "tool";
  tool_call_id: string;
  content: string;
}

/** A Responses API output item, of which the `function_call` items are run. */
export interface OpenAiResponseItem {
  type: string;
  call_id?: string | null;
  name?: string | null;
  arguments?: unknown;
}

/** A Responses API function call output (`ResponseInputItem.FunctionCallOutput` in `openai`). */
export interface OpenAiFunctionCallOutput {
  type: "function_call_output";
  call_id: string;
  output: string;
}

/**
 * @example
 * const message = completion.choices[0].message;
 * messages.push(message, ...(await runOpenAiToolCalls(executor, message, { mapping, timeoutMs: 60_000 })));
 */
export async function runOpenAiToolCalls(executor: Pick<Executor, "callTool">, message: OpenAiAssistantMessage, options: RunToolCallsOptions = {}): Promise<OpenAiToolMessage[]> {
  const calls = (message.tool_calls ?? []).flatMap((call) => (call.type === "function" && call.function ? [{ id: call.id, name: call.function.name, arguments: call.function.arguments }] : []));
  const answers = await runToolCalls(executor, calls, options);
  return answers.map((answer) => ({ role: "tool", tool_call_id: answer.call.id, content: answer.text }));
}

/**
 * @example
 * input.push(...response.output, ...(await runOpenAiResponsesToolCalls(executor, response.output, { mapping })));
 */
export async function runOpenAiResponsesToolCalls(executor: Pick<Executor, "callTool">, output: readonly OpenAiResponseItem[], options: RunToolCallsOptions = {}): Promise<OpenAiFunctionCallOutput[]> {
  const calls = output.flatMap((item) => (item.type === "function_call" && typeof item.call_id === "string" && typeof item.name === "string" ? [{ id: item.call_id, name: item.name, arguments: item.arguments ?? "" }] : []));
  const answers = await runToolCalls(executor, calls, options);
  return answers.map((answer) => ({ type: "function_call_output", call_id: answer.call.id, output: answer.text }));
}
