/**
 * Registry tools as one Gemini tool holding a function declaration per registry tool, each with its
 * schema rewritten into Gemini's OpenAPI subset (see `toGeminiSchema`).
 */
import type { ToolInfo } from "../index.js";
import { selectTools, type ToolSelectionOptions } from "./select-tools.js";
import { createToolMapping, type ProviderTools } from "./tool-mapping.js";
import { toGeminiSchema, type GeminiSchema } from "./to-gemini-schema.js";

/** A Gemini function declaration (`FunctionDeclaration` in `@google/genai`). */
export interface GeminiFunctionDeclaration {
  name: string;
  description: string;
  parameters: GeminiSchema;
}

/** A Gemini tool (`Tool` in `@google/genai`). */
export interface GeminiTool {
  functionDeclarations: GeminiFunctionDeclaration[];
}

/**
 * @example
 * const { tools, mapping } = toGeminiTools(await executor.listTools());
 * const response = await ai.models.generateContent({ model, contents, config: { tools } });
 */
export function toGeminiTools(listed: readonly ToolInfo[], options: ToolSelectionOptions = {}): ProviderTools<GeminiTool> {
  const tools = selectTools(listed, options);
  const mapping = createToolMapping(tools, "gemini");
  const functionDeclarations = tools.map((tool) => ({ name: mapping.toProvider(tool.name)!, description: tool.description, parameters: toGeminiSchema(tool.inputSchema) }));
  return { tools: functionDeclarations.length === 0 ? [] : [{ functionDeclarations }], mapping };
}
