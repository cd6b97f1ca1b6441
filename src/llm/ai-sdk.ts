/**
 * `toolexec/llm/ai-sdk`: the registry's tools as a Vercel AI SDK `tools` object, and AI SDK tool calls
 * run through the executor. Needs the `ai` package, version 6; see docs/llm-providers.md.
 *
 * @example
 * import { toAiSdkTools } from "toolexec/llm/ai-sdk";
 * const { tools } = toAiSdkTools(executor, await executor.listTools());
 * const { text } = await generateText({ model, tools, stopWhen: stepCountIs(10), prompt: "Summarize sales.csv" });
 */
export { toAiSdkTools } from "./ai-sdk-tools.js";
export type { AiSdkTool, AiSdkTools } from "./ai-sdk-tools.js";
export type { FrameworkToolOptions } from "./framework-tools.js";
export { runAiSdkToolCalls } from "./ai-sdk-tool-calls.js";
export type { AiSdkToolCall, AiSdkToolOutput } from "./ai-sdk-tool-calls.js";
