/**
 * `toolexec/llm`: the registry's tools in each model provider's format, and a provider's tool calls
 * run through the executor with answers in that provider's format. See docs/llm-providers.md. Tools
 * for the Vercel AI SDK and LangChain.js are in `toolexec/llm/ai-sdk` and `toolexec/llm/langchain`,
 * which import those optional peers; this entry imports no provider package.
 *
 * @example
 * import { toOpenAiChatTools, runOpenAiToolCalls } from "toolexec/llm";
 * const { tools, mapping } = toOpenAiChatTools(await executor.listTools());
 * const completion = await openai.chat.completions.create({ model, messages, tools });
 * messages.push(completion.choices[0].message, ...(await runOpenAiToolCalls(executor, completion.choices[0].message, { mapping })));
 */
export { toOpenAiChatTools, toOpenAiResponsesTools } from "./llm/openai-tools.js";
export type { OpenAiChatTool, OpenAiResponsesTool, OpenAiToolOptions, OpenAiTools } from "./llm/openai-tools.js";
export { toAnthropicTools } from "./llm/anthropic-tools.js";
export type { AnthropicTool } from "./llm/anthropic-tools.js";
export { toGeminiTools } from "./llm/gemini-tools.js";
export type { GeminiTool, GeminiFunctionDeclaration } from "./llm/gemini-tools.js";
export type { ProviderTools, ToolMapping } from "./llm/tool-mapping.js";
export { createToolNameMap, PROVIDER_NAME_PATTERNS } from "./llm/tool-name-map.js";
export type { ToolNameMap, ProviderName } from "./llm/tool-name-map.js";
export { toStrictSchema } from "./llm/to-strict-schema.js";
export type { StrictSchemaResult } from "./llm/to-strict-schema.js";
export { toGeminiSchema } from "./llm/to-gemini-schema.js";
export type { GeminiSchema, GeminiType } from "./llm/to-gemini-schema.js";
export { inlineReferences, MAX_REFERENCE_DEPTH, MAX_INLINED_NODES } from "./llm/inline-references.js";
export { removeAddedNulls } from "./llm/restore-arguments.js";
export { runToolCalls } from "./llm/run-tool-calls.js";
export type { RunToolCallsOptions, ProviderToolCall, ToolCallAnswer, ToolCallProgressEvent } from "./llm/run-tool-calls.js";
export type { ToolSelectionOptions } from "./llm/select-tools.js";
export { runOpenAiToolCalls, runOpenAiResponsesToolCalls } from "./llm/openai-tool-calls.js";
export type { OpenAiAssistantMessage, OpenAiToolMessage, OpenAiResponseItem, OpenAiFunctionCallOutput } from "./llm/openai-tool-calls.js";
export { runAnthropicToolCalls } from "./llm/anthropic-tool-calls.js";
export type { AnthropicAssistantMessage, AnthropicToolResult } from "./llm/anthropic-tool-calls.js";
export { ANTHROPIC_TOOL_SEARCH_NAME, DEFAULT_TOOL_SEARCH_RESULTS, runAnthropicSearchToolCalls, toAnthropicSearchTools } from "./llm/anthropic-tool-search.js";
export type { AnthropicSearchableTool, AnthropicToolReferenceResult, AnthropicToolSearchOptions } from "./llm/anthropic-tool-search.js";
export { runGeminiToolCalls } from "./llm/gemini-tool-calls.js";
export type { GeminiModelContent, GeminiFunctionResponsePart } from "./llm/gemini-tool-calls.js";
