/** Responses in each provider's documented wire format, for the scripted provider to replay. */

/** An OpenAI Chat Completions response with one choice. */
export const openAiCompletion = (message: object, finish: string) => ({
  id: "chatcmpl-1",
  object: "chat.completion",
  created: 1_700_000_000,
  model: "gpt-test",
  choices: [{ index: 0, message: { role: "assistant", refusal: null, content: null, ...message }, logprobs: null, finish_reason: finish }],
  usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
});

/** An OpenAI Responses API response. */
export const openAiResponse = (output: object[]) => ({ id: "resp_1", object: "response", created_at: 1_700_000_000, status: "completed", model: "gpt-test", output, parallel_tool_calls: true, tool_choice: "auto", tools: [] });

/** An Anthropic Messages response. */
export const anthropicMessage = (content: object[], stopReason: string) => ({
  id: "msg_1",
  type: "message",
  role: "assistant",
  model: "claude-test",
  content,
  stop_reason: stopReason,
  stop_sequence: null,
  usage: { input_tokens: 10, output_tokens: 5 },
});

/** A Gemini generateContent response with one candidate. */
export const geminiAnswer = (parts: object[]) => ({ candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }], usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 }, modelVersion: "gemini-test" });
