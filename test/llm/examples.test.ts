/**
 * The copy-paste agent loops in examples/ run as they are (node, the built dist/, the repository's
 * own tools.json) against a local server replaying each provider's wire format, so they cannot rot:
 * the model asks for unit_convert, the real python tool answers, the model's last answer is printed.
 * Uses the built dist/ (`npm test` builds first).
 */
import path from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { REPOSITORY } from "../mcp/mcp-test-helpers.js";
import { anthropicMessage, geminiAnswer, openAiCompletion, openAiResponse } from "./provider-responses.js";
import { startScriptedProvider, type ScriptedProvider } from "./scripted-provider.js";

const QUESTION = "What is 26.2 miles in km?";
const ARGUMENTS = { value: 26.2, from: "mi", to: "km" };
const ANSWER = "26.2 miles is about 42.16 km.";

const openAiChat = [openAiCompletion({ tool_calls: [{ id: "call_1", type: "function", function: { name: "unit_convert", arguments: JSON.stringify(ARGUMENTS) } }] }, "tool_calls"), openAiCompletion({ content: ANSWER }, "stop")];

/** Per example: the provider's two answers, and where the second request carries the tool's result. */
const EXAMPLES: Record<string, { responses: object[]; toolResult: (body: any) => unknown }> = {
  "openai-chat-agent-loop.mjs": { responses: openAiChat, toolResult: (body) => body.messages.at(-1).content },
  "openai-responses-agent-loop.mjs": {
    responses: [
      openAiResponse([{ type: "function_call", id: "fc_1", call_id: "call_1", name: "unit_convert", arguments: JSON.stringify(ARGUMENTS), status: "completed" }]),
      openAiResponse([{ type: "message", id: "msg_1", role: "assistant", status: "completed", content: [{ type: "output_text", text: ANSWER, annotations: [] }] }]),
    ],
    toolResult: (body) => body.input.at(-1).output,
  },
  "anthropic-agent-loop.mjs": {
    responses: [anthropicMessage([{ type: "tool_use", id: "toolu_1", name: "unit_convert", input: ARGUMENTS }], "tool_use"), anthropicMessage([{ type: "text", text: ANSWER }], "end_turn")],
    toolResult: (body) => body.messages.at(-1).content[0].content,
  },
  "gemini-agent-loop.mjs": {
    responses: [geminiAnswer([{ functionCall: { id: "fc_1", name: "unit_convert", args: ARGUMENTS } }]), geminiAnswer([{ text: ANSWER }])],
    toolResult: (body) => JSON.stringify(body.contents.at(-1).parts[0].functionResponse.response),
  },
  "ai-sdk-agent-loop.mjs": { responses: openAiChat, toolResult: (body) => body.messages.at(-1).content },
  "langchain-agent-loop.mjs": { responses: openAiChat, toolResult: (body) => body.messages.at(-1).content },
};

function environment(provider: ScriptedProvider): Record<string, string> {
  return {
    OPENAI_BASE_URL: `${provider.url}/v1`,
    OPENAI_API_KEY: "test-key",
    ANTHROPIC_BASE_URL: provider.url,
    ANTHROPIC_API_KEY: "test-key",
    GOOGLE_GEMINI_BASE_URL: provider.url,
    GEMINI_API_KEY: "test-key",
  };
}

describe.each(Object.entries(EXAMPLES))("examples/%s", (file, { responses, toolResult }) => {
  it("runs its loop: a tool call, the real tool's answer sent back, the model's answer printed", async () => {
    const provider = await startScriptedProvider(responses);
    const result = await execa(process.execPath, [path.join(REPOSITORY, "examples", file), QUESTION], { env: environment(provider), reject: false, timeout: 60_000 });
    expect(result.stderr).not.toMatch(/Error/);
    expect(result.exitCode).toBe(0);
    expect(result.stdout.trim()).toBe(ANSWER);
    expect(provider.requests).toHaveLength(2);
    expect(JSON.stringify(provider.requests[0]!.body)).toContain(QUESTION);
    expect(String(toolResult(provider.requests[1]!.body))).toContain("42.1648");
  });
});
