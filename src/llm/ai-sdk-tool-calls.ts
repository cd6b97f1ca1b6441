/**
 * AI SDK tool calls (`{ toolCallId, toolName, input }`, as `result.toolCalls` or AI SDK UI's
 * `onToolCall` hand them over) run through the executor, answered as `tool-result` parts for a
 * `{ role: "tool", content }` message; and the one rule, shared with `toAiSdkTools`, for what the
 * model reads: the value as JSON (a string as text), or `error-text` with `CODE: message`.
 */
import type { ToolResultPart } from "ai";
import type { Executor } from "../index.js";
import { runToolCalls, type RunToolCallsOptions, type ToolCallAnswer } from "./run-tool-calls.js";

/** What an AI SDK tool's `execute` resolves to: the answer the model reads, and the envelope when the call ran. */
export type AiSdkToolOutput = Omit<ToolCallAnswer, "call">;

/** The part of an AI SDK tool call this reads (`TypedToolCall` in `ai` fits). */
export interface AiSdkToolCall {
  toolCallId: string;
  toolName: string;
  input: unknown;
}

/** The model's view of an answer, as the AI SDK's tool result `output`. */
export function toAiSdkOutput(answer: AiSdkToolOutput): ToolResultPart["output"] {
  if (answer.isError) return { type: "error-text", value: answer.text };
  // A cut value goes as its text, whose last line names the handle for the rest.
  const value = answer.result?.ok && answer.result.truncated === undefined ? answer.result.value : answer.text;
  // Tool values come from JSON (a script's stdout, an MCP result), so they are JSON values.
  return typeof value === "string" ? { type: "text", value } : { type: "json", value: (value ?? null) as Extract<ToolResultPart["output"], { type: "json" }>["value"] };
}

/**
 * @example
 * const result = await generateText({ model, messages, tools: toolsWithoutExecute });
 * messages.push(...result.response.messages, { role: "tool", content: await runAiSdkToolCalls(executor, result.toolCalls, { mapping }) });
 */
export async function runAiSdkToolCalls(executor: Pick<Executor, "callTool">, toolCalls: readonly AiSdkToolCall[], options: RunToolCallsOptions = {}): Promise<ToolResultPart[]> {
  const answers = await runToolCalls(
    executor,
    toolCalls.map((call) => ({ id: call.toolCallId, name: call.toolName, arguments: call.input })),
    options,
  );
  return answers.map((answer) => ({ type: "tool-result", toolCallId: answer.call.id, toolName: answer.call.name, output: toAiSdkOutput(answer) }));
}
