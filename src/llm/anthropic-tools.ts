/**
 * Registry tools as Anthropic Messages tools (`{ name, description, input_schema }`). Anthropic takes
 * JSON Schema as it is; local references are inlined so the schema stands alone.
 */
import type { ToolInfo } from "../index.js";
import { inlineReferences } from "./inline-references.js";
import { selectTools, type ToolSelectionOptions } from "./select-tools.js";
import { createToolMapping, type ProviderTools } from "./tool-mapping.js";

/** An Anthropic tool (`Tool` in `@anthropic-ai/sdk`). */
export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: { type: "object"; [keyword: string]: unknown };
}

/**
 * @example
 * const { tools, mapping } = toAnthropicTools(await executor.listTools());
 * const message = await anthropic.messages.create({ model, max_tokens: 1024, messages, tools });
 */
export function toAnthropicTools(listed: readonly ToolInfo[], options: ToolSelectionOptions = {}): ProviderTools<AnthropicTool> {
  const tools = selectTools(listed, options);
  const mapping = createToolMapping(tools, "anthropic");
  return {
    tools: tools.map((tool) => ({
      name: mapping.toProvider(tool.name)!,
      description: tool.description,
      input_schema: { ...inlineReferences(tool.inputSchema), type: "object" },
    })),
    mapping,
  };
}
