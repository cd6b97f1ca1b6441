/**
 * The `describe_tools` tool, offered with `search_tools`: the full definitions of named tools
 * (description, input schema, output schema, annotations), so a model that found a tool by search
 * can see how to call it without every schema in its context.
 */
import type { ToolDefinition } from "../../core/plugin-contract.js";
import { DESCRIBE_TOOLS_TOOL_NAME, SEARCH_TOOLS_TOOL_NAME } from "../../core/tool-names.js";

/** Most names one `describe_tools` call takes. */
export const MAX_DESCRIBED_TOOLS = 20;

export const DESCRIBE_TOOLS_DEFINITION: ToolDefinition = {
  name: DESCRIBE_TOOLS_TOOL_NAME,
  description: `Get the full definitions of tools by name — description and input schema (the arguments to pass) — for tools found with ${SEARCH_TOOLS_TOOL_NAME}.`,
  inputSchema: {
    type: "object",
    properties: {
      names: { type: "array", items: { type: "string", minLength: 1, maxLength: 128 }, minItems: 1, maxItems: MAX_DESCRIBED_TOOLS, description: `Tool names, as ${SEARCH_TOOLS_TOOL_NAME} returned them.` },
    },
    required: ["names"],
    additionalProperties: false,
  },
  annotations: { title: "Describe tools", readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  parallel: true,
};

/** One described tool, or a name no tool has. */
export type ToolDescription = { name: string; description: string; inputSchema: unknown; outputSchema?: unknown; annotations?: unknown } | { name: string; error: { code: "TOOL_NOT_FOUND"; message: string } };

/**
 * The definitions of `names`, in their order, from the registry's tools.
 *
 * @example
 * describeTools(["github__create_issue", "nope"], context.listTools());
 * // [{ name: "github__create_issue", description: "...", inputSchema: {...} }, { name: "nope", error: { code: "TOOL_NOT_FOUND", ... } }]
 */
export function describeTools(names: readonly string[], tools: readonly ToolDefinition[]): ToolDescription[] {
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  return names.map((name) => {
    const tool = byName.get(name);
    if (!tool) return { name, error: { code: "TOOL_NOT_FOUND", message: `No tool is named "${name}"; use ${SEARCH_TOOLS_TOOL_NAME} to find one` } };
    return {
      name,
      description: tool.description ?? "",
      inputSchema: tool.inputSchema,
      ...(tool.outputSchema === undefined ? {} : { outputSchema: tool.outputSchema }),
      ...(tool.annotations === undefined ? {} : { annotations: tool.annotations }),
    };
  });
}
