/**
 * Runs the `functionCall` parts of a Gemini answer and answers with `functionResponse` parts, to send
 * back as one `user` content. Following Gemini's convention, a success is `{ output }` and a failure
 * `{ error: "CODE: message" }`; an object value is sent as the object, not as text.
 */
import type { Executor } from "../index.js";
import { runToolCalls, type RunToolCallsOptions } from "./run-tool-calls.js";

/** The part of a Gemini content this reads (`Content` fits; pass `response.candidates[0].content`). */
export interface GeminiModelContent {
  role?: string;
  parts?: Array<{ functionCall?: { id?: string; name?: string; args?: Record<string, unknown> } }>;
}

/** A Gemini function response part (`Part` in `@google/genai`). */
export interface GeminiFunctionResponsePart {
  functionResponse: { id?: string; name: string; response: Record<string, unknown> };
}

/**
 * @example
 * const content = response.candidates[0].content;
 * contents.push(content, { role: "user", parts: await runGeminiToolCalls(executor, content, { mapping }) });
 */
export async function runGeminiToolCalls(executor: Pick<Executor, "callTool">, content: GeminiModelContent, options: RunToolCallsOptions = {}): Promise<GeminiFunctionResponsePart[]> {
  const parts = (content.parts ?? []).flatMap((part) => (part.functionCall?.name === undefined ? [] : [part.functionCall]));
  // Gemini ids are optional: a call without one is matched to its answer by position and name.
  const calls = parts.map((call, index) => ({ id: call.id ?? String(index), name: call.name!, arguments: call.args ?? {} }));
  const answers = await runToolCalls(executor, calls, options);
  return answers.map((answer, index) => {
    // A cut value goes as its text, whose last line names the handle for the rest.
    const value = answer.result?.ok && answer.result.truncated === undefined ? answer.result.value : undefined;
    const response = answer.isError ? { error: answer.text } : { output: value !== null && typeof value === "object" ? value : answer.text };
    const id = parts[index]!.id;
    return { functionResponse: { ...(id === undefined ? {} : { id }), name: answer.call.name, response } };
  });
}
