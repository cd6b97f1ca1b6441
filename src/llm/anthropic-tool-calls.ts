/**
 * Runs the `tool_use` blocks of an Anthropic message and answers with `tool_result` blocks (a failure
 * has `is_error: true` and `CODE: message` as its content), to send back in one user message.
 */
import type { Executor } from "../index.js";
import { runToolCalls, type RunToolCallsOptions } from "./run-tool-calls.js";

/** The part of an Anthropic message this reads (`Message` fits). */
export interface AnthropicAssistantMessage {
  content: ReadonlyArray<{ type: string; id?: string; name?: string; input?: unknown }>;
}

/** An Anthropic tool result block (`ToolResultBlockParam` in `@anthropic-ai/sdk`). */
export interface AnthropicToolResult {
  type: "tool_result";
  tool_use_id: string;
  content: string;
  is_error?: boolean;
}

/**
 * @example
 * messages.push({ role: "assistant", content: message.content });
 * messages.push({ role: "user", content: await runAnthropicToolCalls(executor, message, { mapping }) });
 */
export async function runAnthropicToolCalls(executor: Pick<Executor, "callTool">, message: AnthropicAssistantMessage, options: RunToolCallsOptions = {}): Promise<AnthropicToolResult[]> {
  const calls = message.content.flatMap((block) => (block.type === "tool_use" && block.id !== undefined && block.name !== undefined ? [{ id: block.id, name: block.name, arguments: block.input }] : []));
  const answers = await runToolCalls(executor, calls, options);
  return answers.map((answer) => ({ type: "tool_result", tool_use_id: answer.call.id, content: answer.text, ...(answer.isError ? { is_error: true } : {}) }));
}
