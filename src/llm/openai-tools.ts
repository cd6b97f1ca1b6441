/**
 * Registry tools as OpenAI function tools, for Chat Completions (`{ type: "function", function }`)
 * and for the Responses API (`{ type: "function", name, … }`). A tool is sent `strict: true` when its
 * schema can be made strict (see `toStrictSchema`), else non-strict with its schema as it is (local
 * references inlined); `nonStrict` says which and why.
 */
import type { JsonSchema, ToolInfo } from "../index.js";
import { inlineReferences } from "./inline-references.js";
import { selectTools, type ToolSelectionOptions } from "./select-tools.js";
import { createToolMapping, type ProviderTools, type ToolMapping } from "./tool-mapping.js";
import { toStrictSchema } from "./to-strict-schema.js";

/** A Chat Completions tool (`ChatCompletionFunctionTool` in `openai`). */
export interface OpenAiChatTool {
  type: "function";
  function: { name: string; description: string; parameters: JsonSchema; strict: boolean };
}

/** A Responses API tool (`FunctionTool` in `openai`). */
export interface OpenAiResponsesTool {
  type: "function";
  name: string;
  description: string;
  parameters: JsonSchema;
  strict: boolean;
}

export interface OpenAiToolOptions extends ToolSelectionOptions {
  /** `"auto"` (default): strict where the schema allows; `false`: never strict. */
  strict?: "auto" | false;
}

/** OpenAI tools plus the tools sent non-strict though strict was wanted, with the reason. */
export interface OpenAiTools<Tool> extends ProviderTools<Tool> {
  nonStrict: Array<{ tool: string; reason: string }>;
}

interface OpenAiFunction {
  name: string;
  description: string;
  parameters: JsonSchema;
  strict: boolean;
}

function toFunctions(listed: readonly ToolInfo[], options: OpenAiToolOptions): { functions: OpenAiFunction[]; mapping: ToolMapping; nonStrict: Array<{ tool: string; reason: string }> } {
  // `strict` is checked with the shared options, so a bad one is named beside any other problem.
  const strictProblems = ({ strict }: Record<string, unknown>) => (strict === undefined || strict === "auto" || strict === false ? [] : [`expected "auto" or false, got ${JSON.stringify(strict)} at options.strict`]);
  const tools = selectTools(listed, options, ["strict"], strictProblems);
  const strictSchemas = new Map<string, JsonSchema>();
  const nonStrict: Array<{ tool: string; reason: string }> = [];
  const converted = tools.map((tool) => {
    const strict = options.strict === false ? undefined : toStrictSchema(tool.inputSchema);
    if (strict?.ok) strictSchemas.set(tool.name, tool.inputSchema);
    else if (strict !== undefined) nonStrict.push({ tool: tool.name, reason: strict.reason });
    return { tool, parameters: strict?.ok ? strict.schema : inlineReferences(tool.inputSchema), strict: strict?.ok === true };
  });
  const mapping = createToolMapping(tools, "openai", strictSchemas);
  const functions = converted.map(({ tool, parameters, strict }) => ({ name: mapping.toProvider(tool.name)!, description: tool.description, parameters, strict }));
  return { functions, mapping, nonStrict };
}

/**
 * @example
 * const { tools, mapping } = toOpenAiChatTools(await executor.listTools());
 * const completion = await openai.chat.completions.create({ model, messages, tools });
 */
export function toOpenAiChatTools(tools: readonly ToolInfo[], options: OpenAiToolOptions = {}): OpenAiTools<OpenAiChatTool> {
  const { functions, mapping, nonStrict } = toFunctions(tools, options);
  return { tools: functions.map((definition) => ({ type: "function", function: definition })), mapping, nonStrict };
}

/**
 * @example
 * const { tools, mapping } = toOpenAiResponsesTools(await executor.listTools());
 * const response = await openai.responses.create({ model, input, tools });
 */
export function toOpenAiResponsesTools(tools: readonly ToolInfo[], options: OpenAiToolOptions = {}): OpenAiTools<OpenAiResponsesTool> {
  const { functions, mapping, nonStrict } = toFunctions(tools, options);
  return { tools: functions.map((definition) => ({ type: "function", ...definition })), mapping, nonStrict };
}
