/**
 * Anthropic's tool search with toolexec's ranking: every registry tool is sent with
 * `defer_loading: true` (Claude sees only its name until it is found), beside one custom search
 * tool that stays loaded. When Claude calls that tool, the answer is a `tool_result` holding one
 * `tool_reference` block per tool found, as Anthropic's Messages API documents for a custom tool
 * search; the API then loads those tools' definitions. Other `tool_use` blocks run as usual.
 */
import type { Executor, ToolInfo } from "../index.js";
import { CALL_TOOL_TOOL_NAME, DESCRIBE_TOOLS_TOOL_NAME, SEARCH_TOOLS_TOOL_NAME } from "../plugin.js";
import { toAnthropicTools, type AnthropicTool } from "./anthropic-tools.js";
import { runAnthropicToolCalls, type AnthropicAssistantMessage, type AnthropicToolResult } from "./anthropic-tool-calls.js";
import type { ToolSelectionOptions } from "./select-tools.js";
import type { ProviderTools } from "./tool-mapping.js";
import type { RunToolCallsOptions } from "./run-tool-calls.js";

/** The custom search tool's name, as Claude calls it. */
export const ANTHROPIC_TOOL_SEARCH_NAME = "tool_search";
/** How many tools one search references unless the call says. */
export const DEFAULT_TOOL_SEARCH_RESULTS = 5;

/** A tool as sent for tool search: deferred, unless kept loaded. */
export type AnthropicSearchableTool = AnthropicTool & { defer_loading?: boolean };

/** A `tool_result` answering the search tool: `tool_reference` blocks (`ToolReferenceBlockParam` in `@anthropic-ai/sdk`). */
export interface AnthropicToolReferenceResult {
  type: "tool_result";
  tool_use_id: string;
  content: Array<{ type: "tool_reference"; tool_name: string }> | string;
  is_error?: boolean;
}

export interface AnthropicToolSearchOptions extends ToolSelectionOptions {
  /** Registry tools sent loaded (not deferred): those the model needs on most turns. */
  loadedTools?: readonly string[];
}

const SEARCH_TOOL: AnthropicTool = {
  name: ANTHROPIC_TOOL_SEARCH_NAME,
  description: "Find the tools for a task, described in plain words. The tools found become available to call.",
  input_schema: {
    type: "object",
    properties: { query: { type: "string", minLength: 1, maxLength: 2000, description: "The task, in plain words." }, limit: { type: "integer", minimum: 1, maximum: 20, description: `How many tools (default ${DEFAULT_TOOL_SEARCH_RESULTS}).` } },
    required: ["query"],
  },
};

/**
 * The registry's tools for Anthropic's tool search: each deferred (but `loadedTools`), plus the
 * search tool. The executor's own `search_tools`, `describe_tools` and `call_tool` are left out.
 *
 * @example
 * const { tools, mapping } = toAnthropicSearchTools(await executor.listTools(), { loadedTools: ["request_human_input"] });
 * const message = await anthropic.messages.create({ model, max_tokens: 1024, messages, tools });
 */
export function toAnthropicSearchTools(listed: readonly ToolInfo[], options: AnthropicToolSearchOptions = {}): ProviderTools<AnthropicSearchableTool> {
  const { loadedTools = [], ...selection } = options;
  const own = new Set([SEARCH_TOOLS_TOOL_NAME, DESCRIBE_TOOLS_TOOL_NAME, CALL_TOOL_TOOL_NAME]);
  const { tools, mapping } = toAnthropicTools(listed.filter((tool) => !own.has(tool.name)), selection);
  const loaded = new Set(loadedTools.map((name) => mapping.toProvider(name)));
  return { tools: [SEARCH_TOOL, ...tools.map((tool) => (loaded.has(tool.name) ? tool : { ...tool, defer_loading: true }))], mapping };
}

/**
 * Answer a message's `tool_use` blocks: calls of the search tool with `tool_reference` blocks (the
 * tools `executor.searchTools` ranks best, among those sent), every other call through the executor.
 * Results keep the order of the calls.
 *
 * @example
 * messages.push({ role: "user", content: await runAnthropicSearchToolCalls(executor, message, { mapping }) });
 */
export async function runAnthropicSearchToolCalls(executor: Pick<Executor, "callTool" | "searchTools">, message: AnthropicAssistantMessage, options: RunToolCallsOptions = {}): Promise<Array<AnthropicToolResult | AnthropicToolReferenceResult>> {
  const isSearch = (block: AnthropicAssistantMessage["content"][number]) => block.type === "tool_use" && block.name === ANTHROPIC_TOOL_SEARCH_NAME && block.id !== undefined;
  const others = await runAnthropicToolCalls(executor, { content: message.content.filter((block) => !isSearch(block)) }, options);
  const searches = await Promise.all(message.content.filter(isSearch).map((block) => answerSearch(executor, block.id as string, block.input, options)));
  const byId = new Map<string, AnthropicToolResult | AnthropicToolReferenceResult>([...others, ...searches].map((result) => [result.tool_use_id, result]));
  return message.content.flatMap((block) => (block.type === "tool_use" && block.id !== undefined && byId.has(block.id) ? [byId.get(block.id)!] : []));
}

async function answerSearch(executor: Pick<Executor, "searchTools">, id: string, input: unknown, options: RunToolCallsOptions): Promise<AnthropicToolReferenceResult> {
  const { query, limit } = (input ?? {}) as { query?: unknown; limit?: unknown };
  if (typeof query !== "string" || query.trim() === "") return { type: "tool_result", tool_use_id: id, content: "INVALID_INPUT: query must be a non-empty string", is_error: true };
  const wanted = typeof limit === "number" && Number.isInteger(limit) && limit >= 1 ? Math.min(limit, 20) : DEFAULT_TOOL_SEARCH_RESULTS;
  try {
    // Ranked over the whole registry: keep the tools that were sent, as the API knows only those.
    const found = (await executor.searchTools(query, { limit: Math.min(100, wanted + 10) })).flatMap((result) => {
      const name = options.mapping ? options.mapping.toProvider(result.name) : result.name;
      return name === undefined || name === ANTHROPIC_TOOL_SEARCH_NAME ? [] : [name];
    });
    if (found.length === 0) return { type: "tool_result", tool_use_id: id, content: "No tool matched; try other words." };
    return { type: "tool_result", tool_use_id: id, content: found.slice(0, wanted).map((name) => ({ type: "tool_reference", tool_name: name })) };
  } catch (error) {
    return { type: "tool_result", tool_use_id: id, content: `${(error as { code?: string }).code ?? "TOOL_FAILED"}: ${(error as Error).message}`, is_error: true };
  }
}
